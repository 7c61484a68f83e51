import { z } from 'zod';
import { caseFields, refineDistinctRanks } from './cases.ts';

/**
 * The case fields a doctor may keep as their usual choices, in the order the profile shows
 * them; a new case's form starts from them (docs/decisions/case-form.md § Doctor defaults).
 */
export const doctorPreferenceKeys = [
  'midline',
  'overjet',
  'overbite',
  'crossBite',
  'rightCanine',
  'leftCanine',
  'rightMolar',
  'leftMolar',
  'iprPreference',
  'proclination',
  'expansion',
  'extraction',
  'ipr',
  'auxiliaryType',
  'toothNumbering',
  'shipment',
  'alignerShipment',
] as const satisfies readonly (keyof typeof caseFields)[];
export type DoctorPreferenceKey = (typeof doctorPreferenceKeys)[number];
type PreferenceField = (typeof caseFields)[DoctorPreferenceKey];
export type DoctorPreferenceName = PreferenceField['sent'];

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The preference fields by their submission names, each checked by the case form's rule; blank or absent is "no default". */
const preferenceShape = Object.fromEntries(
  doctorPreferenceKeys.map((key) => {
    const field = caseFields[key];
    const rule = z.preprocess((value) => (isBlank(value) ? undefined : value), field.schema.optional());
    return [field.sent, rule.optional()];
  }),
) as unknown as { [K in DoctorPreferenceName]: z.ZodOptional<z.ZodType<string | undefined, unknown>> };

/** PUT /doctor/preferences: the choices to keep, validated like the case form; a missing one has no default. */
export const doctorPreferences = z.object(preferenceShape).superRefine(refineDistinctRanks);
export type DoctorPreferences = z.output<typeof doctorPreferences>;

/** GET /doctor/preferences: what was saved (an empty object before any save). */
export const doctorPreferencesAnswer = z.object(
  Object.fromEntries(doctorPreferenceKeys.map((key) => [caseFields[key].sent, z.string().optional()])) as {
    [K in DoctorPreferenceName]: z.ZodOptional<z.ZodString>;
  },
);
