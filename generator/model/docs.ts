/**
 * Docstrings have two readers (docs/guide/declaring.md "Descriptions on the wire"): the developers who read
 * `entities/` and `generated/`, and the callers who read the OpenAPI documents and the GraphQL
 * schema. A docstring is split by its TSDoc sections:
 *
 * - the summary section (the text before the first block tag) and `@remarks` are for callers:
 *   they become descriptions on the wire, `{@link Target | text}` written as its text;
 * - `@privateRemarks` is for maintainers only (TSDoc: "not intended for a public audience"): it
 *   stays in the declarations and in the generated code's JSDoc, never on the wire;
 * - other block tags (`@param`, `@returns`, `@see`, `@example`, …) reach neither.
 *
 * Plain functions of text, without ts-morph: `parse/` hands them the sections it read.
 */

/** The TSDoc sections of one docstring, as written (trimmed, without comment markers). */
export interface DocSections {
  /** The summary section: the text before the first block tag. */
  readonly summary: string;
  /** `@remarks`: more for the same readers. */
  readonly remarks: string | undefined;
  /** `@privateRemarks`: for maintainers only. */
  readonly privateRemarks: string | undefined;
}

/** A docstring for each of its readers; either is undefined when nothing is written for it. */
export interface DocText {
  /** For developers (carried into the generated code's JSDoc and the Prisma schema): every prose section. */
  readonly doc: string | undefined;
  /** For callers (OpenAPI and GraphQL descriptions): the summary section and `@remarks`. */
  readonly description: string | undefined;
}

const nonEmpty = (text: string | undefined): text is string => text !== undefined && text.trim().length > 0;

const joinParagraphs = (parts: readonly (string | undefined)[]): string | undefined => {
  const written = parts.filter(nonEmpty).map((part) => part.trim());
  return written.length > 0 ? written.join('\n\n') : undefined;
};

/** `{@link Target}` as `Target`, `{@link Target | text}` (or `{@link Target text}`) as `text`; `{@linkcode …}` and `{@linkplain …}` likewise. */
export function plainInlineTags(text: string): string {
  return text.replace(/\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g, (_match, target: string, label: string) =>
    label.trim() ? label.trim() : target,
  );
}

/**
 * The docstring of a declaration for each reader, from the sections of its docstrings (several
 * `/** … *\/` blocks on one declaration are read in order, paragraph after paragraph).
 */
export function docText(sections: readonly DocSections[]): DocText {
  const doc = joinParagraphs(sections.flatMap((section) => [section.summary, section.remarks, section.privateRemarks]));
  const description = joinParagraphs(sections.flatMap((section) => [section.summary, section.remarks]));
  return { doc, description: description === undefined ? undefined : plainInlineTags(description) };
}

/** Words a period follows without ending a sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx)\.$/i;

/**
 * Splits a caller-facing description into its first sentence and the rest: the first sentence
 * ends at `.`, `!` or `?` followed by a space and a word that starts a sentence (a capital, a
 * digit, a backtick, a quote or a parenthesis), outside backticks, or at the end of the first
 * paragraph. Line breaks inside the first sentence become spaces.
 * @returns the first sentence, and the rest (undefined when nothing follows it)
 */
export function firstSentence(text: string): { readonly sentence: string; readonly rest: string | undefined } {
  const trimmed = text.trim();
  let inCode = false;
  for (let index = 0; index < trimmed.length; index++) {
    const char = trimmed[index];
    if (char === '`') inCode = !inCode;
    if (inCode) continue;
    if (char === '\n' && trimmed[index + 1] === '\n') return split(trimmed, index);
    if (char !== '.' && char !== '!' && char !== '?') continue;
    const after = trimmed.slice(index + 1);
    if (after.length === 0) break;
    if (!/^\s+[A-Z0-9`"'(\u2018\u201c]/.test(after)) continue;
    if (char === '.' && ABBREVIATION.test(trimmed.slice(0, index + 1))) continue;
    return split(trimmed, index + 1);
  }
  return { sentence: trimmed.replace(/\s*\n\s*/g, ' '), rest: undefined };
}

function split(text: string, at: number): { readonly sentence: string; readonly rest: string | undefined } {
  const rest = text.slice(at).trim();
  return {
    sentence: text
      .slice(0, at)
      .trim()
      .replace(/\s*\n\s*/g, ' '),
    rest: rest.length > 0 ? rest : undefined,
  };
}
