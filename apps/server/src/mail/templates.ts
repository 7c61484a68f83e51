import type { EmailTemplateName } from './mailer.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Variables = Record<string, string>;

/** The sign-in screen beside the reset page: the reset link is `{PUBLIC_URL}/reset-password?token=`. */
function signInUrlOf(resetUrl: string): string {
  try {
    return new URL('.', resetUrl).href;
  } catch {
    return '';
  }
}

const templates: Record<EmailTemplateName, (v: Variables) => RenderedMail> = {
  // Active first, with the password chosen at registration; the reset link only for a new one (docs/decisions.md § The activation mail).
  activation: (v) => {
    const signInUrl = signInUrlOf(v.resetUrl ?? '');
    return {
      subject: 'Your Aligner Portal account is active',
      text: `Dear ${v.username},\n\nYour account has been activated. Sign in with the password you chose when you registered:\n${signInUrl}\n\nTo set a new password instead, use this link (valid for one hour):\n${v.resetUrl}\n\nAligner Portal`,
      html: `<p>Dear ${escapeHtml(v.username ?? '')},</p><p>Your account has been activated. Sign in with the password you chose when you registered:</p><p><a href="${escapeHtml(signInUrl)}">Sign in to Aligner Portal</a></p><p>To set a new password instead, use this link (valid for one hour):</p><p><a href="${escapeHtml(v.resetUrl ?? '')}">${escapeHtml(v.resetUrl ?? '')}</a></p><p>Aligner Portal</p>`,
    };
  },
  // To the old address after one's own password or e-mail changed: what changed, nothing secret.
  accountChanged: (v) => ({
    subject: `Your Aligner Portal ${v.changed} was changed`,
    text: `Dear ${v.username},\n\nThe ${v.changed} of your Aligner Portal account was just changed. If you did this, nothing more is needed. If you did not, contact the lab at once: someone may be using your account.\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(v.username ?? '')},</p><p>The ${escapeHtml(v.changed ?? '')} of your Aligner Portal account was just changed. If you did this, nothing more is needed. If you did not, contact the lab at once: someone may be using your account.</p><p>Aligner Portal</p>`,
  }),
  caseStatus: (v) => ({
    subject: `Case ${v.trackingNo} is now ${v.status}`,
    text: `Dear ${v.doctorName},\n\nThe status of case ${v.trackingNo} changed to ${v.status}.\n${v.caseUrl}\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(v.doctorName ?? '')},</p><p>The status of case ${escapeHtml(v.trackingNo ?? '')} changed to <b>${escapeHtml(v.status ?? '')}</b>.</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">Open the case</a></p><p>Aligner Portal</p>`,
  }),
  // Only the tracking number and the link: no message text or patient name in e-mail (docs/decisions.md § Messages).
  caseMessage: (v) => ({
    subject: `New message about case ${v.trackingNo}`,
    text: `You have a new message about case ${v.trackingNo}.\n${v.caseUrl}\n\nAligner Portal`,
    html: `<p>You have a new message about case ${escapeHtml(v.trackingNo ?? '')}.</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">Open the case</a></p><p>Aligner Portal</p>`,
  }),
  planReady: (v) => ({
    subject: `A treatment plan is ready for your review (case ${v.trackingNo})`,
    text: `Dear ${v.doctorName},\n\nA treatment plan is ready for your review: version ${v.version} of case ${v.trackingNo}.\n${v.caseUrl}\n\nAligner Portal`,
    html: `<p>Dear ${escapeHtml(v.doctorName ?? '')},</p><p>A treatment plan is ready for your review: version ${escapeHtml(v.version ?? '')} of case ${escapeHtml(v.trackingNo ?? '')}.</p><p><a href="${escapeHtml(v.caseUrl ?? '')}">Open the case</a></p><p>Aligner Portal</p>`,
  }),
};

export function renderTemplate(name: EmailTemplateName, variables: Variables, subject?: string): RenderedMail {
  const rendered = templates[name](variables);
  return subject ? { ...rendered, subject } : rendered;
}
