/**
 * The avatar file beside a profile picture: `/api/uploads/users/7/ab12.png` has
 * `ab12_32x32.png` and `ab12_90x90.png` made by the server.
 */
export function avatarUrl(profilePic: string | null, size: 32 | 90): string | undefined {
  if (!profilePic) return undefined;
  return profilePic.replace(/\.(png|jpg|jpeg)$/i, `_${size}x${size}.$1`);
}
