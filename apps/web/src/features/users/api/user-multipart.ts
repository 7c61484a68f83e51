/** The multipart body of /user/add and /user/edit: text fields, then the optional picture. */
export function userMultipart(fields: Record<string, string>, profilePic: File | null): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (profilePic) body.append('profilePic', profilePic);
  return body;
}
