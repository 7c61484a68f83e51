// @vitest-environment happy-dom
import { clinicListMessage, clinicNotAddedMessage } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import {
  fieldDescription,
  fileInputOf,
  fill,
  findToast,
  inputLabelled,
  labelled,
  pickOption,
  renderWithApp,
} from '../../../testing/render.tsx';
import { RegisterScreen } from './register-screen.tsx';

const countries = [
  { CountryId: 1, CountryName: 'France' },
  { CountryId: 2, CountryName: 'Germany' },
];
const geography = {
  'GET /api/country/get_countries_list': countries,
  'GET /api/city/get_cities_list/2': [
    { CityId: 20, CityName: 'Berlin' },
    { CityId: 21, CityName: 'Hamburg' },
  ],
};

const field = inputLabelled;
const clinicSection = () => screen.getByRole('group', { name: 'Clinic Information' });

describe('Register screen', () => {
  it('shows every required message under its field on Submit, and the clinic rule in its section; sends nothing', async () => {
    const api = fakeApi(geography);
    const { user } = renderWithApp(<RegisterScreen />);
    for (const group of ['Personal Information', 'Clinic Information', 'Login Information'])
      expect(screen.getByRole('group', { name: group })).toBeTruthy();
    // Registration gives role 19 and Inactive: neither is offered.
    expect(screen.queryByLabelText(/^Role/)).toBeNull();
    expect(screen.queryByLabelText(/^Status/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const required: [string, string][] = [
      ['First Name', 'First Name is required'],
      ['Last Name', 'Last Name is required'],
      ['Email', 'Email is required'],
      ['Username', 'Username is required'],
      ['Password', 'Password is required'],
      ['Location', 'Location is required'],
      ['Gender', 'Gender is required'],
    ];
    for (const [label, message] of required) {
      await waitFor(() => expect(fieldDescription(field(label))).toContain(message));
    }
    await findToast(clinicListMessage);
    expect(within(clinicSection()).getByText(clinicListMessage)).toBeTruthy();
    // The first field with an error is focused, as a person filling it in from the top expects.
    await waitFor(() => expect(document.activeElement).toBe(field('First Name')));
    expect(api.changes()).toEqual([]);
  });

  it('checks each field as it changes, message by message', async () => {
    fakeApi(geography);
    const { user } = renderWithApp(<RegisterScreen />);
    await fill(user, field('Username'), 'ab');
    await waitFor(() =>
      expect(fieldDescription(field('Username'))).toContain('Username must be at least 3 characters'),
    );
    await fill(user, field('Email'), 'not-an-email');
    await waitFor(() => expect(fieldDescription(field('Email'))).toContain('Email is not valid'));
    await fill(user, field('Password'), 'abc');
    await waitFor(() =>
      expect(fieldDescription(field('Password'))).toContain('Password must be at least 12 characters'),
    );
    await fill(user, field('Password'), 'abcdefghijkl');
    await fill(user, field('Confirm Password'), 'abcdefghijkX');
    await waitFor(() => expect(fieldDescription(field('Confirm Password'))).toContain('Passwords do not match'));
    await fill(user, field('Confirm Password'), 'abcdefghijkl');
    await waitFor(() => expect(fieldDescription(field('Confirm Password'))).toBe(''));
  });

  it('needs a country before a city, checks Add Clinic, and starts a new clinic in the doctor’s country', async () => {
    const api = fakeApi(geography);
    const { user } = renderWithApp(<RegisterScreen />);
    expect(field('City').hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Add Clinic' }));
    await waitFor(() => expect(fieldDescription(field('Clinic Name'))).toContain('Clinic Name is required!'));
    expect(fieldDescription(field('City'))).toContain('City is required!');

    await pickOption(user, 'Location', 'Germany');
    await waitFor(() => expect((field('Country') as HTMLInputElement).value).toBe('Germany'));
    await waitFor(() => expect(field('City').hasAttribute('disabled')).toBe(false));

    // Typed but not complete: Submit says to complete it and press Add Clinic.
    await fill(user, field('Clinic Name'), 'Typed Smiles');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await findToast(clinicNotAddedMessage);
    expect(fieldDescription(field('City'))).toContain('City is required!');

    await pickOption(user, 'City', 'Berlin');
    await user.click(screen.getByRole('button', { name: 'Add Clinic' }));
    const clinics = screen.getByRole('table', { name: 'Clinics' });
    await waitFor(() =>
      expect(within(clinics).getByRole('row', { name: /Typed Smiles/ }).textContent).toContain('Berlin'),
    );
    expect((field('Clinic Name') as HTMLInputElement).value).toBe('');
    expect(api.changes()).toEqual([]);
  });

  it('picks the match on Enter in a location picker, and never submits the form from it', async () => {
    const api = fakeApi(geography);
    const { user } = renderWithApp(<RegisterScreen />);
    const location = field('Location') as HTMLInputElement;
    // Nothing matches: Enter does nothing (before issue 41 it submitted the form, every field turned red).
    await user.type(location, 'Zz{Enter}');
    expect(fieldDescription(field('First Name'))).not.toContain('First Name is required');
    await user.clear(location);
    await user.type(location, 'germ{Enter}');
    await waitFor(() => expect(location.value).toBe('Germany'));
    await waitFor(() => expect((field('Country') as HTMLInputElement).value).toBe('Germany'));
    expect(fieldDescription(field('First Name'))).not.toContain('First Name is required');
    // The country's cities, by keyboard too, and the typed name stays after the field is left.
    const city = field('City') as HTMLInputElement;
    await waitFor(() => expect(city.hasAttribute('disabled')).toBe(false));
    await user.type(city, 'ham{Enter}');
    await waitFor(() => expect(city.value).toBe('Hamburg'));
    await user.tab();
    expect(city.value).toBe('Hamburg');
    expect(api.changes()).toEqual([]);
  });

  it('picks the first match on Enter when the countries arrived after the text was typed', async () => {
    let answerCountries = () => {};
    const countriesAnswered = new Promise<void>((resolve) => (answerCountries = resolve));
    fakeApi({ ...geography, 'GET /api/country/get_countries_list': () => countriesAnswered.then(() => countries) });
    const { user } = renderWithApp(<RegisterScreen />);
    const location = field('Location') as HTMLInputElement;
    await user.type(location, 'germ');
    answerCountries();
    await screen.findByRole('option', { name: 'Germany' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.value).toBe('Germany'));
    expect(fieldDescription(field('First Name'))).not.toContain('First Name is required');
  });

  it('refuses a profile picture that is not JPEG or PNG and shows no preview', async () => {
    fakeApi(geography);
    const { user } = renderWithApp(<RegisterScreen />);
    const picture = screen.getByRole('button', { name: labelled('Profile Picture') });
    await user.upload(fileInputOf(picture), new File(['not a picture'], 'notes.txt', { type: 'text/plain' }));
    await waitFor(() => expect(fieldDescription(picture)).toBe('Only JPG and PNG files are allowed!'));
    expect(screen.queryByRole('img', { name: 'Profile picture preview' })).toBeNull();
  });
});
