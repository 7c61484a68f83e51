// @vitest-environment happy-dom
import { caseFileMessages, DOCTOR_ROLE_ID } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../../testing/fake-api.ts';
import {
  fieldDescription,
  fileInputOf,
  fill,
  findToast,
  inputLabelled,
  labelled,
  pickOption,
  renderWithApp,
} from '../../../../testing/render.tsx';
import { signInAs } from '../../../../testing/session.ts';
import { CaseForm } from './case-form.tsx';

// The form uploads each accepted file at once through tus. Here the tus endpoint is taken to
// be unreachable: each upload fails at once, and the form would send those bytes with the case.
vi.mock('tus-js-client', () => ({
  Upload: class {
    private readonly options: { onError?: (error: Error) => void };
    constructor(_file: File, options: { onError?: (error: Error) => void }) {
      this.options = options;
    }
    findPreviousUploads = async () => [];
    start() {
      this.options.onError?.(new Error('tus endpoint unreachable'));
    }
    abort = async () => {};
  },
}));

const doctorId = 5;

const serverAnswers = {
  'GET /api/doctor/preferences': {},
  [`GET /api/clinic/get_clinics_list_by_user_id/${doctorId}`]: [{ ClinicId: 3, ClinicName: 'Smile Clinic' }],
  // The form saves itself as a draft as it is filled in.
  'POST /api/case/drafts': { draftId: 1, updatedAt: '2026-01-05T10:00:00.000Z' },
  'PUT /api/case/drafts/1': { draftId: 1, updatedAt: '2026-01-05T10:00:01.000Z' },
};

beforeEach(() => signInAs({ userId: doctorId, userName: 'ada', userType: 'Doctor', roleId: DOCTOR_ROLE_ID }));

type User = ReturnType<typeof renderWithApp>['user'];

const textbox = (label: string) => screen.getByRole('textbox', { name: labelled(label) });
const select = inputLabelled;
const radiogroup = (label: string) => screen.getByRole('radiogroup', { name: labelled(label) });
const fileButton = (label: string) => screen.getByRole('button', { name: labelled(label) });
const fileInput = (label: string) => fileInputOf(fileButton(label));
const termsCheckbox = () => screen.getByRole('checkbox', { name: /I accept the Terms and Conditions/ });
const stepButton = (step: string) => screen.getByRole('button', { name: new RegExp(`^(\\d|Complete)?\\s*${step}`) });
const submitButton = () => screen.getByRole('button', { name: 'Submit' });

const file = (name: string, type: string) => new File(['solid'], name, { type });

const pickRadio = (user: User, group: string, option: string) =>
  user.click(within(radiogroup(group)).getByRole('radio', { name: option }));

/** Step 1's required fields, as the browser tests' fillCaseDetails fills them. */
async function fillCaseDetails(user: User) {
  await fill(user, textbox('First Name'), 'Ann');
  await fill(user, textbox('Last Name'), 'Patient');
  await fill(user, textbox('Date Of Birth'), '2001-03-05');
  await user.keyboard('{Escape}');
  await pickOption(user, 'Clinic', 'Smile Clinic');
  await pickOption(user, 'Arches To Treat', 'Both');
  await pickOption(user, 'Nature of Patient', 'Local');
  await pickOption(user, 'Aligner Shipment', 'Batches');
  await fill(user, textbox('Chief Complaint'), 'Crowding of the lower incisors');
}

/** The message is announced as the field's description: shown under that field, not just somewhere. */
const describes = (field: () => HTMLElement, message: string) =>
  waitFor(() => expect(fieldDescription(field())).toContain(message));
const describesNot = (field: () => HTMLElement, message: string) =>
  waitFor(() => expect(fieldDescription(field())).not.toContain(message));

async function openForm() {
  const api = fakeApi(serverAnswers);
  const rendered = renderWithApp(<CaseForm />, { path: '/cases' });
  await screen.findByRole('button', { name: 'Next' });
  return { ...rendered, api };
}

describe('Case form', () => {
  it('shows every validation message under its field and sends nothing while one stands', async () => {
    const { user, api } = await openForm();
    await user.click(stepButton("Patients's Records"));
    await user.click(submitButton());
    // The first step with an error is shown, each message under its own field.
    const stepOneFields: [() => HTMLElement, string][] = [
      [() => textbox('First Name'), 'First Name is required'],
      [() => textbox('Last Name'), 'Last Name is required'],
      [() => textbox('Date Of Birth'), 'Date Of Birth is required'],
      [() => select('Clinic'), 'Clinic is required'],
      [() => select('Arches To Treat'), 'Arches To Treat is required'],
      [() => select('Nature of Patient'), 'Nature of Patient is required'],
      [() => select('Aligner Shipment'), 'Aligner Shipment is required'],
      [() => textbox('Chief Complaint'), 'Chief Complaint is required'],
    ];
    for (const [field, message] of stepOneFields) await describes(field, message);
    expect(textbox('First Name').getAttribute('aria-invalid')).toBe('true');

    // A message goes as soon as its field is filled.
    await fill(user, textbox('First Name'), 'Ann');
    await describesNot(() => textbox('First Name'), 'First Name is required');

    await user.click(stepButton("Patients's Records"));
    await describes(() => radiogroup('Impression Type'), 'Impression Type is required');
    await describes(termsCheckbox, 'Terms and Conditions is required');
    await pickRadio(user, 'Impression Type', 'Digital Impression');
    expect(screen.getByText('Maxillary scans are required when submitting a digital impression.')).toBeTruthy();
    await user.click(submitButton());
    await findToast(caseFileMessages.maxillaryScanRequired);
    await user.click(stepButton("Patients's Records"));
    const maxillaryScan = () => fileButton('Maxillary Scan');
    await describes(maxillaryScan, 'Maxillary Scan is required');

    await user.upload(fileInput('Maxillary Scan'), file('notes.txt', 'text/plain'));
    await describes(maxillaryScan, 'Only STL, ZIP, and RAR files are allowed!');
    expect(maxillaryScan().textContent).not.toContain('notes.txt');
    await user.upload(fileInput('Maxillary Scan'), file('upper.stl', 'model/stl'));
    await describesNot(maxillaryScan, 'Only STL, ZIP, and RAR files are allowed!');
    expect(maxillaryScan().textContent).toContain('upper.stl');

    const front = () => fileButton('Front');
    await user.upload(fileInput('Front'), file('front.png', 'image/png'));
    await screen.findByRole('img', { name: 'Front preview' });
    await user.upload(fileInput('Front'), file('front.txt', 'text/plain'));
    await describes(front, 'Only JPG and PNG files are allowed!');
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Front preview' })).toBeNull());
    expect(front().textContent).not.toContain('front');

    const otherFiles = () => fileButton('Other Files');
    await user.upload(fileInput('Other Files'), [file('kept.png', 'image/png'), file('dropped.txt', 'text/plain')]);
    await describes(otherFiles, 'Only JPG, PNG files are allowed!');
    expect(otherFiles().textContent).toContain('kept.png');
    expect(otherFiles().textContent).not.toContain('dropped.txt');

    await user.click(termsCheckbox());
    await describesNot(termsCheckbox, 'Terms and Conditions is required');

    // Step 1 still has errors: Submit goes back there and nothing is sent.
    await user.click(submitButton());
    await describes(() => textbox('Last Name'), 'Last Name is required');
    expect(api.sentTo('POST /api/case/add')).toEqual([]);
  });

  it('checks only its step on Next and ticks a step only when it is valid; Submit marks every step with errors', async () => {
    const { user } = await openForm();
    const isTicked = (step: string) => within(stepButton(step)).queryByRole('img', { name: 'Complete' }) !== null;
    const needsAttention = (step: string) => stepButton(step).textContent!.includes('Needs attention');

    // Next on an empty step 1 stays there, with its messages, and ticks nothing; step 3 is not checked.
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await describes(() => textbox('First Name'), 'First Name is required');
    expect(isTicked('Case Details')).toBe(false);
    expect(needsAttention('Case Details')).toBe(true);
    expect(needsAttention("Patients's Records")).toBe(false);

    // Filled, Next moves on and ticks it; going ahead by the step header ticks nothing.
    await fillCaseDetails(user);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('radiogroup', { name: labelled('Midline') });
    expect(isTicked('Case Details')).toBe(true);
    await user.click(stepButton("Patients's Records"));
    await screen.findByRole('radiogroup', { name: labelled('Impression Type') });
    expect(isTicked('Treatment Instructions')).toBe(false);

    // An early Submit from step 1 with a new error there: every step with errors is marked, step 1 shown.
    await user.click(stepButton('Case Details'));
    await fill(user, textbox('Last Name'), '');
    await user.click(submitButton());
    await describes(() => textbox('Last Name'), 'Last Name is required');
    await waitFor(() => expect(needsAttention("Patients's Records")).toBe(true));
    expect(needsAttention('Case Details')).toBe(true);
    expect(needsAttention('Treatment Instructions')).toBe(false);
  });

  it('makes no draft for a form only looked through, and saves one once something is typed', async () => {
    const { user, api } = await openForm();
    for (const step of ['Treatment Instructions', "Patients's Records", 'Case Details'])
      await user.click(stepButton(step));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(api.changes()).toEqual([]);

    await fill(user, textbox('First Name'), 'Ann');
    await user.click(stepButton('Treatment Instructions'));
    await waitFor(() => expect(api.sentTo('POST /api/case/drafts')).toHaveLength(1));
    expect(api.sentTo('POST /api/case/drafts')[0]!.body).toMatchObject({ fields: { firstname: 'Ann' }, step: 1 });
  });

  it('takes Enter in a field as Next: only this step is checked, and a valid one moves on', async () => {
    const { user } = await openForm();
    const needsAttention = (step: string) => stepButton(step).textContent!.includes('Needs attention');
    await fill(user, textbox('First Name'), 'Ann');
    await user.keyboard('{Enter}');
    await describes(() => textbox('Last Name'), 'Last Name is required');
    expect(needsAttention('Case Details')).toBe(true);
    expect(needsAttention("Patients's Records")).toBe(false);

    await fillCaseDetails(user);
    await user.click(textbox('First Name'));
    await user.keyboard('{Enter}');
    await screen.findByRole('radiogroup', { name: labelled('Midline') });
    expect(needsAttention("Patients's Records")).toBe(false);
  });

  it('swaps two ranks when a taken one is chosen and clears any of them: no choice is ever stuck', async () => {
    const { user } = await openForm();
    await user.click(stepButton('Treatment Instructions'));
    await screen.findByRole('radiogroup', { name: labelled('IPR') });
    const ranks = { IPR: 'First', Proclination: 'Second', Expansion: 'Third', Extraction: 'Fourth' };
    for (const [group, rank] of Object.entries(ranks)) await pickRadio(user, group, `${rank} preference`);
    const rankOf = (group: string) =>
      within(radiogroup(group))
        .getAllByRole<HTMLInputElement>('radio')
        .find((radio) => radio.checked)?.value ?? null;

    // Every rank stays open: Expansion takes IPR's, IPR gets Expansion's.
    for (const group of Object.keys(ranks)) {
      for (const radio of within(radiogroup(group)).getAllByRole<HTMLInputElement>('radio'))
        expect(radio.disabled, group).toBe(false);
    }
    await pickRadio(user, 'Expansion', 'First preference');
    await waitFor(() => expect(rankOf('Expansion')).toBe('First preference'));
    expect(rankOf('IPR')).toBe('Third preference');
    expect(rankOf('Proclination')).toBe('Second preference');
    // Said under the choice just made, in a live region a screen reader announces.
    const said = within(radiogroup('Expansion')).getByText('IPR moved to Third preference');
    expect(said.getAttribute('aria-live')).toBe('polite');

    // A rank can be given up, then taken by another.
    await user.click(screen.getByRole('button', { name: 'Clear Proclination' }));
    await waitFor(() => expect(rankOf('Proclination')).toBe(null));
    await pickRadio(user, 'Extraction', 'Second preference');
    await waitFor(() => expect(rankOf('Extraction')).toBe('Second preference'));
    expect(rankOf('Proclination')).toBe(null);
  });
});
