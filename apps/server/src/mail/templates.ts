import type { EmailTemplateName } from './mailer.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Variables = Record<string, string>;

/** Mail greets a person by their name; a mail queued before names were sent carries only the username. */
const nameOf = (v: Variables) => v.name || v.username || '';

/** The sign-in screen beside the reset page: the reset link is `{PUBLIC_URL}/reset-password?token=`. */
function signInUrlOf(resetUrl: string): string {
  try {
    return new URL('.', resetUrl).href;
  } catch {
    return '';
  }
}

const templates: Record<EmailTemplateName, (v: Variables) => RenderedMail> = {
  // Active first, with the password chosen at registration; the reset link only for a new one (docs/decisions/accounts.md § The activation mail).
  activation: (v) => {
    const signInUrl = signInUrlOf(v.resetUrl ?? '');
    return {
      subject: 'Your Aligner Portal account is active',
      text: `Dear ${nameOf(v)},\n\nYour account has been activated. Sign in with the password you chose when you registered:\n${signInUrl}\n\nTo set a new password instead, use this link (valid for one hour):\n${v.resetUrl}\n\nAligner Portal`,
      html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>Your account has been activated. Sign in with the password you chose when you registered:</p><p><a href="${escapeHtml(signInUrl)}">Sign in to Aligner Portal</a></p><p>To set a new password instead, use this link (valid for one hour):</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>Aligner Portal</p>`,
    };
  },
  // To an assistant a doctor invited, new or already one of another doctor's: the reset link
  // sets a new account's password (docs/decisions/assistants.md § Assistants).
  assistantInvitation: (v) => {
    const signInUrl = signInUrlOf(v.resetUrl ?? '');
    return {
      subject: `${v.doctorName} added you as an assistant on Aligner Portal`,
      text: `Dear ${nameOf(v)},\n\n${v.doctorName} added you as their assistant on Aligner Portal: you can submit and follow their cases. Your username is this e-mail address.\n\nTo set your password (a new account needs one), use this link (valid for one hour):\n${v.resetUrl}\n\nThen sign in:\n${signInUrl}\n\nAligner Portal`,
      html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>${escapeHtml(v.doctorName ?? '')} added you as their assistant on Aligner Portal: you can submit and follow their cases. Your username is this e-mail address.</p><p>To set your password (a new account needs one), use this link (valid for one hour):</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>Then sign in: <a href="${escapeHtml(signInUrl)}">Aligner Portal</a></p><p>Aligner Portal</p>`,
    };
  },
  // To the address the account had, after its password or e-mail changed by any means (own
  // change, reset link, the administrator): what changed, nothing secret.
  // After a reset through a mailed link, `factors` tells which second factors still sign in
  // (a factor someone else added would outlive the new password).
  accountChanged: (v) => {
    const factors = v.factors
      ? `${v.factors} If one of them is not yours, sign in and remove it on your Security page, or ask the lab to reset your second factor.`
      : '';
    return {
      subject: `Your Aligner Portal ${v.changed} was changed`,
      text: `Dear ${nameOf(v)},\n\nThe ${v.changed} of your Aligner Portal account was just changed. If you did this, or asked the lab to, nothing more is needed. If you did not, contact the lab at once: someone may be using your account.\n\n${factors ? `${factors}\n\n` : ''}Aligner Portal`,
      html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>The ${escapeHtml(v.changed ?? '')} of your Aligner Portal account was just changed. If you did this, or asked the lab to, nothing more is needed. If you did not, contact the lab at once: someone may be using your account.</p>${factors ? `<p>${escapeHtml(factors)}</p>` : ''}<p>Aligner Portal</p>`,
    };
  },
  // To the owner once, when the second step locks after too many wrong answers: whoever gave
  // them got past the password, so the password is known (docs/decisions/second-step-lock-and-enrolment.md).
  secondStepLocked: (v) => ({
    subject: 'Someone who knows your Aligner Portal password was stopped',
    text: `Dear ${nameOf(v)},\n\nSomeone signed in to your Aligner Portal account with the right password, then gave ${v.failures} wrong codes for your second factor. The second step of signing in to your account is locked until ${v.lockedUntil}.\n\nIf this was not you, someone knows your password: change it as soon as you can (sign in after the lock ends, or ask the lab for a link to set a new one). Your second factor kept them out.\n\nIf it was you, sign in again after ${v.lockedUntil}, or ask the administrator to reset your second factor.\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>Someone signed in to your Aligner Portal account with the right password, then gave ${escapeHtml(v.failures ?? '')} wrong codes for your second factor. The second step of signing in to your account is locked until ${escapeHtml(v.lockedUntil ?? '')}.</p><p><b>If this was not you, someone knows your password:</b> change it as soon as you can (sign in after the lock ends, or ask the lab for a link to set a new one). Your second factor kept them out.</p><p>If it was you, sign in again after ${escapeHtml(v.lockedUntil ?? '')}, or ask the administrator to reset your second factor.</p><p>Aligner Portal</p>`,
  }),
  // To the owner at every change of their second factors (docs/decisions/second-factor-changes.md):
  // what changed, when, from which device and address, and what to do if it was not them.
  secondFactorChanged: (v) => {
    const facts = [`When: ${v.when}`, `Device: ${v.device}`, `Address: ${v.address}`];
    const notYou =
      'If this was not you, someone has your session: set a new password now (ask the lab for a reset link if you cannot sign in) and ask the lab to reset your second factor.';
    return {
      subject: 'Your Aligner Portal second factor was changed',
      text: `Dear ${nameOf(v)},\n\n${v.change}\n\n${facts.join('\n')}\n\n${notYou}\n\nAligner Portal`,
      html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>${escapeHtml(v.change ?? '')}</p><p>${facts.map(escapeHtml).join('<br>')}</p><p>${escapeHtml(notYou)}</p><p>Aligner Portal</p>`,
    };
  },
  // The lab removed every factor of the account (an audited action of the Users page).
  secondFactorReset: (v) => {
    const next =
      v.mustEnrol === 'yes'
        ? 'At your next sign-in you will be asked to set up a second factor again.'
        : 'You can set up a second factor again on your Security page.';
    const body = `The lab reset the second factor of your Aligner Portal account: your authenticator app, passkeys and recovery codes were removed, and you were signed out everywhere. ${next} If you did not ask for this, contact the lab at once.`;
    return {
      subject: 'Your Aligner Portal second factor was reset',
      text: `Dear ${nameOf(v)},\n\n${body}\n\nAligner Portal`,
      html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>${escapeHtml(body)}</p><p>Aligner Portal</p>`,
    };
  },
  // Only ever to the account's own address: staff ask for it, they never see the link.
  passwordReset: (v) => ({
    subject: 'Set a new Aligner Portal password',
    text: `Dear ${nameOf(v)},\n\nThe lab has sent you a link to set a new password for your Aligner Portal account (valid for one hour):\n${v.resetUrl}\n\nIf you did not ask for one, you can ignore this e-mail: your password stays as it is.\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>The lab has sent you a link to set a new password for your Aligner Portal account (valid for one hour):</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>If you did not ask for one, you can ignore this e-mail: your password stays as it is.</p><p>Aligner Portal</p>`,
  }),
  // Registration answers the same whether the username was free or taken; the outcome comes by
  // e-mail (docs/decisions/accounts.md § Registration tells nothing about usernames).
  registrationReceived: (v) => ({
    subject: 'Your Aligner Portal registration was received',
    text: `Dear ${v.name},\n\nWe received your registration with the username ${v.username}. The lab reviews it, and you will get another e-mail when your account is active.\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(v.name ?? '')},</p><p>We received your registration with the username ${escapeHtml(v.username ?? '')}. The lab reviews it, and you will get another e-mail when your account is active.</p><p>Aligner Portal</p>`,
  }),
  registrationNotCompleted: (v) => ({
    subject: 'Your Aligner Portal registration was not completed',
    text: `Dear ${v.name},\n\nThe username ${v.username} is not available, so no account was made. Please register again with another username. If this username is already yours, sign in with it, or ask the lab for a link to set a new password.\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(v.name ?? '')},</p><p>The username ${escapeHtml(v.username ?? '')} is not available, so no account was made. Please register again with another username. If this username is already yours, sign in with it, or ask the lab for a link to set a new password.</p><p>Aligner Portal</p>`,
  }),
  usernameRegistrationAttempt: (v) => ({
    subject: 'Someone tried to register your Aligner Portal username',
    text: `Dear ${nameOf(v)},\n\nSomeone just tried to register a new Aligner Portal account with your username, ${v.username}. No account was made and yours is unchanged. If it was you, sign in with your password as usual; otherwise nothing is needed.\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>Someone just tried to register a new Aligner Portal account with your username, ${escapeHtml(v.username ?? '')}. No account was made and yours is unchanged. If it was you, sign in with your password as usual; otherwise nothing is needed.</p><p>Aligner Portal</p>`,
  }),
  // A dispatched case's mail names the courier and its tracking number, so the doctor can follow the parcel.
  caseStatus: (v) => {
    const shipment = v.courier ? [`Courier: ${v.courier}`, `Tracking number: ${v.courierTrackingNumber ?? ''}`] : [];
    return {
      subject: `Case ${v.trackingNo} is now ${v.status}`,
      text: `Dear ${v.doctorName},\n\nThe status of case ${v.trackingNo} changed to ${v.status}.\n${shipment.map((line) => `${line}\n`).join('')}${v.caseUrl}\n\nAligner Portal`,
      html: `<p>Dear ${escapeHtml(v.doctorName ?? '')},</p><p>The status of case ${escapeHtml(v.trackingNo ?? '')} changed to <b>${escapeHtml(v.status ?? '')}</b>.</p>${shipment.length > 0 ? `<p>${shipment.map(escapeHtml).join('<br>')}</p>` : ''}<p><a href="${escapeHtml(v.caseUrl ?? '')}">Open the case</a></p><p>Aligner Portal</p>`,
    };
  },
  // To the lab's staff: the tracking number, the doctor and the link, no patient data (docs/decisions/mail.md § Mail for the lab).
  caseSubmitted: (v) => ({
    subject: `New case ${v.trackingNo} from ${v.doctorName}`,
    text: `Dear ${nameOf(v)},\n\n${v.doctorName} has a new case, ${v.trackingNo}, waiting for the lab.\n${v.caseUrl}\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>${escapeHtml(v.doctorName ?? '')} has a new case, ${escapeHtml(v.trackingNo ?? '')}, waiting for the lab.</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">Open the case</a></p><p>Aligner Portal</p>`,
  }),
  // Only the tracking number and the link: no message text or patient name in e-mail (docs/decisions/messages.md § Messages).
  caseMessage: (v) => ({
    subject: `New message about case ${v.trackingNo}`,
    text: `You have a new message about case ${v.trackingNo}.\n${v.caseUrl}\n\nAligner Portal`,
    html: `<p>You have a new message about case ${escapeHtml(v.trackingNo ?? '')}.</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">Open the case</a></p><p>Aligner Portal</p>`,
  }),
  // The day's case mails of the kinds the user chose as a digest, each told by its own mail's subject (docs/decisions/mail.md § E-mail preferences).
  digest: (v) => {
    const lines = (v.items ?? '').split('\n').filter(Boolean);
    const more = Number(v.more) > 0 ? `And ${v.more} more in the portal.` : '';
    return {
      subject: `Your Aligner Portal digest: ${lines.length + Number(v.more || 0)} updates`,
      text: `Dear ${nameOf(v)},\n\nWhat happened on your cases since your last digest:\n${lines.map((line) => `- ${line}\n`).join('')}${more ? `${more}\n` : ''}\nYour inbox: ${v.inboxUrl}\n\nAligner Portal`,
      html: `<p>Dear ${escapeHtml(nameOf(v))},</p><p>What happened on your cases since your last digest:</p><ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>${more ? `<p>${escapeHtml(more)}</p>` : ''}<p><a href="${escapeHtml(v.inboxUrl ?? '')}">Open your inbox</a></p><p>Aligner Portal</p>`,
    };
  },
  planReady: (v) => ({
    subject: `A treatment plan is ready for your review (case ${v.trackingNo})`,
    text: `Dear ${v.doctorName},\n\nA treatment plan is ready for your review: version ${v.version} of case ${v.trackingNo}.\n${v.caseUrl}\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(v.doctorName ?? '')},</p><p>A treatment plan is ready for your review: version ${escapeHtml(v.version ?? '')} of case ${escapeHtml(v.trackingNo ?? '')}.</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">Open the case</a></p><p>Aligner Portal</p>`,
  }),
};

/** Subjects come from the templates only: no caller writes the portal's words (issue 20). */
export function renderTemplate(name: EmailTemplateName, variables: Variables): RenderedMail {
  return templates[name](variables);
}
