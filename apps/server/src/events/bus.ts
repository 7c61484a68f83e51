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

/** Sessions that ended (docs/decisions/sign-in-and-sessions.md § Sessions): every process closes their streams. */
export interface SessionsEndedMessage {
  endedSessionIds: string[];
}

/**
 * An account or its access changed (deactivated, deleted, new password, role or page
 * permissions): every process checks its open streams' sessions again at once.
 */
interface SessionsChangedMessage {
  sessionsChanged: true;
}

export type BusMessage = CaseEventMessage | SessionsEndedMessage | SessionsChangedMessage;

export const isSessionsEnded = (message: BusMessage): message is SessionsEndedMessage => 'endedSessionIds' in message;

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
    const message = JSON.parse(text) as Partial<
      CaseEventMessage & SessionsEndedMessage & SessionsChangedMessage
    > | null;
    if (Array.isArray(message?.endedSessionIds)) {
      const endedSessionIds = message.endedSessionIds.filter((id) => typeof id === 'string');
      return { endedSessionIds };
    }
    if (message?.sessionsChanged === true) return { sessionsChanged: true };
    return message?.event?.type && typeof message.audience?.doctorUserId === 'number'
      ? { event: message.event, audience: message.audience }
      : null;
  } catch {
    return null;
  }
}
