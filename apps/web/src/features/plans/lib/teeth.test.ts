import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { attachmentsInput, attachmentsText, parseAttachments } from './teeth.ts';

// The messages in English, as the code writes them (the words these tests check).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('parseAttachments', () => {
  it('reads FDI numbers separated by commas, spaces or semicolons, each with an optional stage', () => {
    expect(parseAttachments('13, 23 33;43')).toEqual({ attachmentTeeth: [13, 23, 33, 43], attachmentStages: [] });
    expect(parseAttachments('13, 33:5')).toEqual({
      attachmentTeeth: [13, 33],
      attachmentStages: [{ tooth: 33, stage: 5 }],
    });
    expect(parseAttachments('  ')).toEqual({ attachmentTeeth: [], attachmentStages: [] });
  });

  it('refuses anything else', () => {
    expect(parseAttachments('13, UL3')).toBeUndefined();
    expect(parseAttachments('1.5')).toBeUndefined();
    expect(parseAttachments('123')).toBeUndefined();
    expect(parseAttachments('13:')).toBeUndefined();
    expect(parseAttachments('13:5:6')).toBeUndefined();
  });
});

describe('attachmentsText', () => {
  it('names the stage of an attachment placed after stage 0', () => {
    expect(attachmentsText({ attachmentTeeth: [13, 33], attachmentStages: [{ tooth: 33, stage: 5 }] })).toBe(
      '13, 33 (stage 5)',
    );
    expect(attachmentsText({ attachmentTeeth: [], attachmentStages: [] })).toBe('None');
  });
});

describe('attachmentsInput', () => {
  it('writes the teeth as the form reads them back', () => {
    const summary = { attachmentTeeth: [13, 23, 33], attachmentStages: [{ tooth: 33, stage: 5 }] };
    expect(attachmentsInput(summary)).toBe('13, 23, 33:5');
    expect(parseAttachments(attachmentsInput(summary))).toEqual(summary);
    expect(attachmentsInput({ attachmentTeeth: [], attachmentStages: [] })).toBe('');
  });
});
