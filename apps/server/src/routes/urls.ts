/**
 * Where the API serves what the database names by storage key or id. Rows keep keys, answers
 * carry these addresses, so a moved route never means rewriting stored rows.
 */

/** A stored profile picture: routes/uploads serves the `users/<id>/<file>` keys under /api/uploads. */
export const pictureUrl = (key: string | null): string | null => (key === null ? null : `/api/uploads/${key}`);

/** An attachment's download; the name in the path is only for the browser's "save as". */
const caseFileUrl = (attachmentId: number, fileName: string): string =>
  `/api/case/files/${attachmentId}/${encodeURIComponent(fileName)}`;

/** A user or doctor row as answered: the picture's key becomes its ProfilePic address. */
export function withPictureUrl<T extends { profilePicKey: string | null }>({ profilePicKey, ...row }: T) {
  return { ...row, ProfilePic: pictureUrl(profilePicKey) };
}

/** An attachment row as answered: its id becomes the FilePath to download it from. */
export function withFileUrl<T extends { attachmentId: number; FileName: string }>({ attachmentId, ...row }: T) {
  return { ...row, FilePath: caseFileUrl(attachmentId, row.FileName) };
}

/** A message's file download; the name in the path is only for the browser's "save as". */
export const messageFileUrl = (fileId: number, fileName: string): string =>
  `/api/case/message_files/${fileId}/${encodeURIComponent(fileName)}`;
/** A plan stage model's download; the name in the path is only for the browser's "save as". */
export const planFileUrl = (stageFileId: number, fileName: string): string =>
  `/api/case/plan_files/${stageFileId}/${encodeURIComponent(fileName)}`;
