import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { renderTemplate } from './templates.ts';

export type EmailTemplateName = 'activation' | 'caseStatus' | 'caseMessage' | 'planReady' | 'accountChanged';

export interface MailMessage {
  to: string;
  template: EmailTemplateName;
  variables: Record<string, string>;
  subject?: string;
}

/**
 * Sends over SMTP when SMTP_URL is set; otherwise writes each message as an .eml file into
 * DATA_DIR/outbox, where a developer (or a test) can open it.
 */
export class Mailer {
  private readonly transport: Transporter;

  private readonly options: { smtpUrl?: string; from: string; outboxDir: string };
  private readonly log: FastifyBaseLogger;

  constructor(options: { smtpUrl?: string; from: string; outboxDir: string }, log: FastifyBaseLogger) {
    this.options = options;
    this.log = log;
    this.transport = options.smtpUrl
      ? nodemailer.createTransport(options.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<void> {
    const rendered = renderTemplate(message.template, message.variables, message.subject);
    const info = await this.transport.sendMail({ from: this.options.from, to: message.to, ...rendered });
    if (!this.options.smtpUrl) {
      await mkdir(this.options.outboxDir, { recursive: true });
      const file = path.join(
        this.options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
      );
      await writeFile(file, (info as unknown as { message: Buffer }).message);
    }
    this.log.info({ template: message.template }, 'mail sent');
  }

  close(): void {
    this.transport.close();
  }
}
