import type { LiveEvent } from '@portal/contract';

/**
 * One event as it crosses processes: what streams send (`event`), and who may receive it
 * (`audience`), which never leaves the server. Staff with the Dashboard page get every
 * case event; a doctor only those whose `doctorUserId` is theirs.
 */
export interface CaseEventMessage {
  event: LiveEvent;
  audience: { doctorUserId: number };
}

/**
 * An account or its access changed (deactivated, deleted, new password, role or page
 * permissions, signed out): every process checks its open streams' sessions again at once.
 */
export interface SessionsChangedMessage {
  sessionsChanged: true;
}

export type BusMessage = CaseEventMessage | SessionsChangedMessage;

export type BusListener = (message: BusMessage) => void;

/**
 * Carries events from the process where they happen to every process holding streams:
 * PostgreSQL LISTEN/NOTIFY, Redis pub/sub, or this process alone (PGlite). `publish` is
 * called after the change commits; every process (the publisher too) hears it through
 * `subscribe`, exactly once.
 */
export interface EventBus {
  readonly kind: 'local' | 'postgres' | 'redis';
  publish(message: BusMessage): Promise<void>;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
}

/** The listeners of one process; the adapters feed it what they receive. */
export class Listeners {
  private readonly listeners = new Set<BusListener>();

  add(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(message: BusMessage): void {
    for (const listener of this.listeners) listener(message);
  }
}

/** Parses what another process sent; anything malformed is dropped. */
export function parseMessage(text: string): BusMessage | null {
  try {
    const message = JSON.parse(text) as Partial<CaseEventMessage & SessionsChangedMessage> | null;
    if (message?.sessionsChanged === true) return { sessionsChanged: true };
    return message?.event?.type && typeof message.audience?.doctorUserId === 'number'
      ? (message as CaseEventMessage)
      : null;
  } catch {
    return null;
  }
}
