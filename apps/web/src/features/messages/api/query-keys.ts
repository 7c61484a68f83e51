// Shared with the dashboard, the menu and the live events (lib/shared-queries.ts).
export { messageKeys } from '../../../lib/shared-queries.ts';
