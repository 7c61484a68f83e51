import { msg } from '@lingui/core/macro';
import { toothPosition } from '@portal/contract/tooth-numbering';
import { i18n } from './i18n.ts';

const quadrantWords = {
  'upper right': msg`Upper right`,
  'upper left': msg`Upper left`,
  'lower left': msg`Lower left`,
  'lower right': msg`Lower right`,
};

/** Words a screen reader can say, in the language shown: 'Upper right 8 (tooth 1)' in English. */
export function toothDescription(universal: number): string {
  const { quadrant, position } = toothPosition(universal);
  const side = i18n._(quadrantWords[quadrant]);
  return i18n._(msg`${side} ${position} (tooth ${universal})`);
}
