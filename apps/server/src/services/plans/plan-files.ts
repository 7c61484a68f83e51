import { displayFileName } from '../cases/file-checks.ts';

/**
 * The name a stage file is shown and downloaded under: the last segment of what the
 * uploader or the ZIP called it (folders dropped, `../` included), without control or bidi
 * characters. Only ever displayed; storage keys are made by the server.
 */
export const planFileName = (name: string) => displayFileName(name);
