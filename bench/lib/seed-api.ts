/** Signs in and seeds through a running portal's API (benchmarks use the real endpoints). */
export async function call<T>(
  baseUrl: string,
  method: string,
  url: string,
  options: { token?: string; json?: unknown; form?: FormData } = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}/api${url}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.form ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body as T;
}

export const login = async (baseUrl: string, username: string, password: string) =>
  await call<{ token: string; userId: number }>(baseUrl, 'POST', '/auth/login', { json: { username, password } });

/** An active doctor with one clinic; returns their token, user id and clinic id. */
export async function activeDoctor(baseUrl: string, adminToken: string, username: string) {
  const [city] = await call<{ CityId: number }[]>(baseUrl, 'GET', '/city/get_cities_list/1');
  const form = new FormData();
  const fields = {
    username,
    firstname: 'Bench',
    lastname: 'Doctor',
    password: 'bench-pass',
    email: `${username}@bench.test`,
    roleId: '19',
    countryId: '1',
    gender: 'Other',
    clinicList: JSON.stringify([{ clinicId: 0, clinicName: 'Bench Clinic', countryId: 1, cityId: city!.CityId }]),
    isActive: 'true',
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  await call(baseUrl, 'POST', '/doctor/add', { token: adminToken, form });
  const session = await login(baseUrl, username, 'bench-pass');
  const [clinic] = await call<{ ClinicId: number }[]>(
    baseUrl,
    'GET',
    `/clinic/get_clinics_list_by_user_id/${session.userId}`,
    { token: session.token },
  );
  return { token: session.token, userId: session.userId, clinicId: clinic!.ClinicId };
}
