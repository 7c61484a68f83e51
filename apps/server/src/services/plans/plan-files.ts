import { displayFileName } from '../cases/file-checks.ts';

/** Bidirectional controls and invisible marks that could make a name read as something else. */
const bidiControls = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * The name a stage file is shown and downloaded under: the last segment of what the
 * uploader or the ZIP called it (folders dropped, `../` included), without control or bidi
 * characters. Only ever displayed; storage keys are made by the server.
 */
export const planFileName = (name: string) => displayFileName(name.replace(bidiControls, ''));
