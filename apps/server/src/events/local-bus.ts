import { Listeners, type BusListener, type BusMessage, type EventBus } from './bus.ts';

/** One process (PGlite): events go straight to this process's streams. */
export class LocalBus implements EventBus {
  readonly kind = 'local';
  private readonly listeners = new Listeners();

  publish(message: BusMessage): Promise<void> {
    // Asynchronous like the other adapters, so a publisher never runs stream writes inline.
    queueMicrotask(() => this.listeners.deliver(message));
    return Promise.resolve();
  }

  subscribe(listener: BusListener): () => void {
    return this.listeners.add(listener);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
