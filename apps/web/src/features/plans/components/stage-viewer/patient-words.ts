import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ViewPreset } from '../../../../components/stl-viewer/view-presets.ts';

/**
 * The stage viewer's words on a patient link's page: a patient knows their teeth, not
 * "occlusal" or a ghost (issue 41). Only the words differ; the views are the clinicians'.
 * Descriptors: shown with `i18n._` in the language of the page.
 */
export const patientViewLabels: Partial<Record<ViewPreset, MessageDescriptor>> = {
  front: msg`Front`,
  upperOcclusal: msg`Upper teeth from below`,
  lowerOcclusal: msg`Lower teeth from above`,
  left: msg`Left side`,
  right: msg`Right side`,
};

export const patientGhostLabel = msg`Show your teeth today, faintly`;

/** How to move the view, in the gestures of the device at hand: fingers on a phone, a mouse elsewhere. */
export const patientHowToMove = (isTouch: boolean): MessageDescriptor =>
  isTouch
    ? msg`Drag with one finger to turn the teeth, pinch to zoom, drag with two fingers to move them. Stage 0 is your teeth today; each stage after it is one aligner. With your teeth today shown faintly, you see how far they have moved.`
    : msg`Drag to turn the teeth, scroll to zoom, drag with the right mouse button to move them. Stage 0 is your teeth today; each stage after it is one aligner. With your teeth today shown faintly, you see how far they have moved.`;

/** A touch screen as the main pointer (a phone or tablet), read once: it does not change while the page is open. */
export const isTouchScreen = () =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a media query, not words
  window.matchMedia('(pointer: coarse)').matches;
