import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultLocale, type Locale } from '@portal/contract';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { ownerOnlyFile, ownerOnlyFolder } from '../lib/owner-only.ts';
import { renderTemplate } from './templates.ts';

export type EmailTemplateName =
  | 'activation'
  | 'assistantInvitation'
  | 'caseStatus'
  | 'caseSubmitted'
  | 'caseMessage'
  | 'planReady'
  | 'progressScanDone'
  | 'progressScanFailed'
  | 'digest'
  | 'accountChanged'
  | 'secondStepLocked'
  | 'passwordReset'
  | 'passwordForgotten'
  | 'staffInvitation'
  | 'registrationReceived'
  | 'registrationNotCompleted'
  | 'usernameRegistrationAttempt'
  | 'secondFactorChanged'
  | 'secondFactorReset'
  | 'planShareLink';

export interface MailMessage {
  to: string;
  template: EmailTemplateName;
  variables: Record<string, string>;
  /** The reader's language, when the sender knows it (a registration's chosen language); see outbox.ts readerLocale. */
  locale?: Locale;
  /** The account the mail is for, when the sender knows it: its language is the mail's. */
  userId?: number;
}

/**
 * Sends over SMTP when SMTP_URL is set; otherwise writes each message as an .eml file into
 * DATA_DIR/outbox, where a developer (or a test) can open it.
 */
export class Mailer {
  /** nodemailer is loaded with the first message, not by every start. */
  private transport?: Promise<Transporter>;

  private readonly options: { smtpUrl?: string; from: string; outboxDir: string };
  private readonly log: FastifyBaseLogger;

  constructor(options: { smtpUrl?: string; from: string; outboxDir: string }, log: FastifyBaseLogger) {
    this.options = options;
    this.log = log;
  }

  private connect(): Promise<Transporter> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      this.options.smtpUrl
        ? nodemailer.createTransport(this.options.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return this.transport;
  }

  async send(message: MailMessage): Promise<void> {
    const locale = message.locale ?? defaultLocale;
    const rendered = renderTemplate(message.template, message.variables, locale);
    const transport = await this.connect();
    // The reader's language in a header of its own (issue 43), on every mail.
    const headers = { 'Content-Language': locale };
    const info = await transport.sendMail({ from: this.options.from, to: message.to, headers, ...rendered });
    if (!this.options.smtpUrl) {
      // Owner-only: the mails carry password-reset links (lib/owner-only.ts).
      await mkdir(this.options.outboxDir, { recursive: true, mode: ownerOnlyFolder });
      const file = path.join(
        this.options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
      );
      await writeFile(file, (info as unknown as { message: Buffer }).message, { mode: ownerOnlyFile });
    }
    this.log.info({ template: message.template }, 'mail sent');
  }

  close(): void {
    void this.transport?.then((transport) => transport.close());
  }
}
