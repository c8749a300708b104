/**
 * Docstrings have two readers (generator/model/docs.ts): callers get the summary section and
 * `@remarks`, with inline links as their text; developers get every prose section, `@privateRemarks`
 * included. OpenAPI summaries are a description's first sentence.
 */
import { describe, expect, it } from 'vitest';
import { docText, firstSentence, plainInlineTags } from '../../generator/model/docs.js';

describe('docstring sections (generator/model/docs.ts)', () => {
  it('gives callers the summary section and @remarks, and developers every prose section', () => {
    expect(docText([{ summary: 'A note.', remarks: 'Private to its author.', privateRemarks: 'See docs/behaviour.md §2.' }])).toEqual({
      doc: 'A note.\n\nPrivate to its author.\n\nSee docs/behaviour.md §2.',
      description: 'A note.\n\nPrivate to its author.',
    });
    expect(docText([{ summary: '', remarks: undefined, privateRemarks: 'Only for us.' }])).toEqual({
      doc: 'Only for us.',
      description: undefined,
    });
    expect(docText([])).toEqual({ doc: undefined, description: undefined });
  });

  it('writes inline links as their text for callers', () => {
    expect(plainInlineTags('see {@link Note | the note schema} and {@link Org}')).toBe('see the note schema and Org');
    expect(docText([{ summary: 'See {@link Note}.', remarks: undefined, privateRemarks: undefined }])).toEqual({
      doc: 'See {@link Note}.',
      description: 'See Note.',
    });
  });

  it('splits the first sentence from the rest', () => {
    expect(firstSentence('One post by id. Answers 404 when it is not there.')).toEqual({
      sentence: 'One post by id.',
      rest: 'Answers 404 when it is not there.',
    });
    expect(firstSentence('One post by id.')).toEqual({ sentence: 'One post by id.', rest: undefined });
    expect(firstSentence('Lists them, e.g. the newest. Then stops.')).toEqual({
      sentence: 'Lists them, e.g. the newest.',
      rest: 'Then stops.',
    });
    expect(firstSentence('Reads `a. B` here. Done.')).toEqual({ sentence: 'Reads `a. B` here.', rest: 'Done.' });
    expect(firstSentence('Version 2.1 of it. Done.')).toEqual({ sentence: 'Version 2.1 of it.', rest: 'Done.' });
    expect(firstSentence('A summary across\ntwo lines\n\nA second paragraph.')).toEqual({
      sentence: 'A summary across two lines',
      rest: 'A second paragraph.',
    });
  });
});
