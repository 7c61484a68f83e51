import { describe, expect, it } from 'vitest';
import { attachmentsText, parseAttachments } from './teeth.ts';

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
