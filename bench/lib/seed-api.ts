import { createApiClient, endpoints } from '@portal/contract';

/** A running portal's API: benchmarks sign in and seed through the real endpoints. */
export const benchApi = (baseUrl: string) => createApiClient({ baseUrl });

export const login = (baseUrl: string, username: string, password: string) =>
  benchApi(baseUrl).call(endpoints.login, { body: { username, password } });

/** An active doctor with one clinic; returns their token, user id and clinic id. */
export async function activeDoctor(baseUrl: string, adminToken: string, username: string) {
  const api = benchApi(baseUrl);
  const [city] = await api.call(endpoints.cityList, { params: { id: 1 } });
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
  await api.call(endpoints.doctorCreate, { body: form }, { token: adminToken });
  const session = await login(baseUrl, username, 'bench-pass');
  const [clinic] = await api.call(
    endpoints.clinicListOfUser,
    { params: { id: session.userId } },
    { token: session.token },
  );
  return { token: session.token, userId: session.userId, clinicId: clinic!.ClinicId };
}
