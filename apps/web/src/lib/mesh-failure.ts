import { msg } from '@lingui/core/macro';
import { i18n } from './i18n.ts';

/**
 * Why a worker could not read a model (stl-worker.ts, mesh-view-worker.ts): a code, as a worker
 * has no language of its own; the page words it in the language shown. The words finish the
 * viewers' sentences ("Could not read upper.stl: it is not a valid STL file.").
 */
export type MeshFailure =
  | { error: 'status'; status: number }
  | { error: 'not-downloaded' | 'not-stl' | 'no-mesh' | 'copy-unreadable' | 'unreadable' };

/** The failure in words, in the language shown. */
export function meshFailureText(failure: MeshFailure): string {
  switch (failure.error) {
    case 'status': {
      const status = failure.status;
      return i18n._(
        msg({
          message: `the server answered ${status}`,
          comment: "Why a 3D model could not be shown, ending a viewer's sentence",
        }),
      );
    }
    case 'not-downloaded':
      return i18n._(
        msg({
          message: 'it could not be downloaded',
          comment: "Why a 3D model could not be shown, ending a viewer's sentence",
        }),
      );
    case 'not-stl':
      return i18n._(
        msg({
          message: 'it is not a valid STL file',
          comment: "Why a 3D model could not be shown, ending a viewer's sentence",
        }),
      );
    case 'no-mesh':
      return i18n._(
        msg({
          message: 'its viewing copy holds no mesh',
          comment: "Why a 3D model could not be shown, ending a viewer's sentence",
        }),
      );
    case 'copy-unreadable':
      return i18n._(
        msg({
          message: 'its viewing copy could not be read',
          comment: "Why a 3D model could not be shown, ending a viewer's sentence",
        }),
      );
    case 'unreadable':
      return i18n._(
        msg({
          message: 'it could not be read',
          comment: "Why a 3D model could not be shown, ending a viewer's sentence",
        }),
      );
  }
}
