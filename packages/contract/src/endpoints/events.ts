import { defineEndpoint } from '../endpoint.ts';
import { liveEvent } from '../events.ts';

export const eventEndpoints = {
  eventStream: defineEndpoint({
    method: 'GET',
    path: '/api/events',
    operationId: 'eventStream',
    summary: 'Live updates: Server-Sent Events about the cases the caller may see',
    tag: 'events',
    // Those who may read cases: Dashboard staff get every case's events, a doctor their own.
    access: { pages: ['/dashboard'], doctors: true, assistants: true },
    answer: {
      stream: {
        events: liveEvent,
        description:
          'An open text/event-stream: `event: case.status` with `{ caseId, status, at }` when a case the caller may ' +
          'see changes status (no patient data; refetch what you show), and a `: heartbeat` comment about every 25 s. ' +
          'It ends when the session ends (logout, deactivation) or the server shuts down; EventSource reconnects.',
      },
    },
  }),
};
