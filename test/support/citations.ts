/**
 * The repository's documents cite one another, and nothing else (docs/README.md "Citations"):
 * - a `docs/<page>.md §N` or `§N.M` citation names a heading numbered that way in that page; a third
 *   number names an item of the section's numbered list (`docs/behaviour.md §9.3.3`), and a bare
 *   `§N` in a Markdown page one of that page's own sections;
 * - a heading cited by name (`BENCHMARKS.md §"Where the time goes"`, `docs/guide/migrations.md
 *   "Drift"`) is a heading, or a bold label opening a paragraph, of that page;
 * - a page named at all is a page of this repository (an installed copy's path counts as its own);
 * - a relative link in a Markdown page names an existing file (and a `#anchor` one of its headings),
 *   and a page the package ships links only to pages it ships;
 * - no text points outside the repository: at a folder beside it, at an outside spec, or at an
 *   issue tracker's numbers (history lives in the commit messages).
 * Code files are checked in their comments only; a citation may break across two lines.
 */

/** One text file of the repository: its path from the root, and its text. */
export interface TextFile {
  readonly path: string;
  readonly text: string;
}

/**
 * Whether `file` is an application's own text (the golden cases' declarations and what `generate`
 * writes from them): its words are its domain's — an issue tracker speaks of `issue: Issue` — so the
 * pointers outside the repository are not looked for there; its citations still must resolve.
 */
function applicationText(file: TextFile): boolean {
  return file.path.startsWith('test/golden/');
}

/** One thing wrong: where (`path:line`) and what. */
export interface CitationFinding {
  readonly at: string;
  readonly problem: string;
}

/** What a page offers to be cited: its numbered sections (with their numbered list items), and its heading slugs. */
interface PageIndex {
  /** `9.3` → how many numbered list items the section holds. */
  readonly sections: ReadonlyMap<string, number>;
  /** Heading titles without their numbers, and the bold labels opening a paragraph or item (`**Drift.**`). */
  readonly headings: ReadonlySet<string>;
  readonly slugs: ReadonlySet<string>;
}

/** Pointers outside the repository, in any text: checked on whole Markdown pages and on the comments of code. */
const OUTSIDE: readonly { readonly pattern: RegExp; readonly problem: string }[] = [
  { pattern: /\.\.\/shared\b/, problem: 'points at ../shared, outside the repository' },
  { pattern: /\bthe spec(?:'s|\s*$| says\b)/i, problem: 'cites an outside spec ("the spec says", "the spec\'s"); cite docs/ instead' },
  { pattern: /\bspec §/i, problem: 'cites an outside spec ("spec §"); cite docs/ instead' },
  { pattern: /\bissues? #?\d+/i, problem: 'names an issue number; history lives in commit messages' },
  { pattern: /\bissue:/i, problem: 'cites an issue ("issue:"); say the reason itself' },
];

/** `docs/behaviour.md §4.2, §4.7` and `BENCHMARKS.md §"Where the time goes"`: a page, then one or more sections. */
const CITATION =
  /((?:[A-Za-z0-9_./-]*\.md|\bREADME|\b(?:behaviour|decisions|hostile-input|architecture)(?=,? §))),? ("[^"\n]+"|§(?:"[^"\n]+"|\d+(?:\.\d+)*)(?:(?:, | and | or |\/| to |–)§(?:"[^"\n]+"|\d+(?:\.\d+)*))*)/g;
const SECTION = /(?:^|§)(?:"([^"\n]+)"|(\d+(?:\.\d+)*))/g;
/** Sections of documents outside the repository that a page may name: `RFC 9728 §3.3`. */
const OTHER_SECTIONS = /\bRFC \d+ §[\d.]+/g;
/** A page name ending a line, whose citation may continue on the next. */
const PAGE_AT_END = /([A-Za-z0-9_./-]*\.md|\bREADME),?$/;
const BARE = /§\d+(?:\.\d+)*/g;
/** A Markdown page named in prose: `docs/decisions.md`, `RELIABILITY.md`. */
const MENTION = /([A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)\b/g;
const LINK = /\]\(([^)\s]+)\)/g;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function indexPage(text: string): PageIndex {
  const sections = new Map<string, number>();
  const headings = new Set<string>();
  const slugs = new Set<string>();
  let current: string | undefined;
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (heading) {
      const title = heading[1] ?? '';
      const slug = slugOf(title);
      // A repeated heading gets `-1`, `-2`, … as on GitHub.
      let unique = slug;
      for (let n = 1; slugs.has(unique); n++) unique = `${slug}-${n}`;
      slugs.add(unique);
      const numbered = /^(\d+(?:\.\d+)*)\.? (.+)$/.exec(title);
      headings.add(numbered ? (numbered[2] ?? '') : title);
      current = numbered?.[1];
      if (current !== undefined) sections.set(current, 0);
      continue;
    }
    const label = /^\s*(?:[-*] |\d+\. )?\*\*([^*]+?)\.?\*\*/.exec(line);
    if (label) headings.add(label[1] ?? '');
    const item = /^(\d+)\. /.exec(line);
    if (item && current !== undefined) sections.set(current, Math.max(sections.get(current) ?? 0, Number(item[1])));
  }
  return { sections, headings, slugs };
}

/** Checks the sections `cited` names (`§4.2, §"Drift"`) against the page `name` indexes as `index`; a fault is pushed onto `findings`. */
function checkSections(name: string, index: PageIndex, cited: string, at: string, findings: CitationFinding[]): void {
  for (const section of cited.matchAll(SECTION)) {
    const [, heading, number] = section;
    if (heading !== undefined) {
      // A heading's parenthesised tail may be left out: §"Where the time goes" for "Where the time goes (CPU profiles)".
      const named = index.headings.has(heading) || [...index.headings].some((title) => title.startsWith(`${heading} (`));
      if (!named) findings.push({ at, problem: `cites ${name} "${heading}", which is no heading there` });
      continue;
    }
    if (number === undefined || index.sections.has(number)) continue;
    // A third number names an item of a numbered list under the section the first two name.
    const parent = number.split('.').slice(0, -1).join('.');
    const item = Number(number.split('.').pop());
    const items = index.sections.get(parent);
    if (number.split('.').length < 3 || items === undefined || item < 1 || item > items) {
      findings.push({ at, problem: `cites ${name} §${number}, which is no section there` });
    }
  }
}

/** The comment text of a line of code (the whole line for prose files), or undefined when it has none. */
function commentOf(path: string, line: string): string | undefined {
  if (!/\.(ts|mts|cts|js|mjs|cjs)$/.test(path)) return line;
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*') || trimmed.startsWith('//')) return trimmed;
  const trailing = line.indexOf(' // ');
  return trailing === -1 ? undefined : line.slice(trailing);
}

/** The page a citation names: `docs/x.md` as written, else the one tracked page of that file name. */
function pageNamed(written: string, pages: ReadonlyMap<string, PageIndex>): string | undefined {
  // `README` is the root page; `decisions §6` (no extension) one of docs/.
  // An installed copy's page (`node_modules/resource-service/docs/README.md`) is the repository's.
  const name =
    written === 'README'
      ? 'README.md'
      : written.endsWith('.md')
        ? written.replace(/^node_modules\/resource-service\//, '')
        : `docs/${written}.md`;
  if (pages.has(name)) return name;
  const base = name.split('/').pop() ?? name;
  const matches = [...pages.keys()].filter((page) => page === base || page.endsWith(`/${base}`));
  return matches.length === 1 ? matches[0] : undefined;
}

function resolvePath(from: string, target: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '..') {
      if (parts.length === 0) return `../${target}`;
      parts.pop();
    } else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/**
 * Checks every citation, link and outside pointer in `files` (the repository's tracked text files,
 * paths from its root) and returns what is wrong, one finding per fault; an empty list when all holds.
 * Markdown pages among `files` are the pages citations may name; `binaries` are the other tracked
 * files (images, …) a link may name. A link in a page `shipped` accepts (one the package ships) must
 * name a page it accepts too, so that the link holds in an installed copy.
 */
export function checkCitations(
  files: readonly TextFile[],
  binaries: readonly string[] = [],
  shipped: (path: string) => boolean = () => false,
): CitationFinding[] {
  const pages = new Map<string, PageIndex>();
  for (const file of files) if (file.path.endsWith('.md')) pages.set(file.path, indexPage(file.text));
  const known = new Set([...files.map((file) => file.path), ...binaries]);
  const directories = new Set(
    files.flatMap((file) =>
      file.path
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  const findings: CitationFinding[] = [];

  for (const file of files) {
    const markdown = file.path.endsWith('.md');
    let fenced = false;
    // A page named at the end of one line whose sections open the next (`docs/behaviour.md\n§4.4`).
    let carried = '';
    file.text.split('\n').forEach((line, index) => {
      const at = `${file.path}:${index + 1}`;
      const comment = commentOf(file.path, line);
      const previous = carried;
      carried = '';
      if (comment === undefined) return;
      if (!applicationText(file)) for (const { pattern, problem } of OUTSIDE) if (pattern.test(comment)) findings.push({ at, problem });
      carried = PAGE_AT_END.exec(comment)?.[1] ?? '';
      const opening = comment.replace(/^[\s*/]*/, '');
      const cited = previous !== '' && /^[§"]/.test(opening) ? `${previous} ${opening}` : comment;

      for (const match of cited.matchAll(CITATION)) {
        const name = match[1] ?? '';
        const page = pageNamed(name, pages);
        const index = page === undefined ? undefined : pages.get(page);
        if (index === undefined) {
          findings.push({ at, problem: `cites ${name}, which is no page of this repository` });
          continue;
        }
        checkSections(name, index, match[2] ?? '', at, findings);
      }
      // A page named without a section must exist too (PRODUCT.md, say, lives outside the repository).
      for (const mention of cited.replace(CITATION, '').replace(LINK, '').matchAll(MENTION)) {
        if (pageNamed(mention[1] ?? '', pages) === undefined)
          findings.push({ at, problem: `names ${mention[1] ?? ''}, which is no page of this repository` });
      }
      // In a Markdown page, a section cited with no page is one of that page's own.
      const own = pages.get(file.path);
      if (markdown && own !== undefined)
        checkSections(file.path, own, cited.replace(CITATION, '').replace(OTHER_SECTIONS, '').match(BARE)?.join(', ') ?? '', at, findings);

      if (!markdown) return;
      if (line.startsWith('```')) fenced = !fenced;
      if (fenced) return;
      for (const match of line.replace(/`[^`]*`/g, '').matchAll(LINK)) {
        const target = match[1] ?? '';
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [pathPart = '', anchor] = target.split('#');
        const resolved = pathPart === '' ? file.path : resolvePath(file.path, pathPart);
        if (resolved.startsWith('../')) {
          findings.push({ at, problem: `links to ${target}, outside the repository` });
          continue;
        }
        if (!known.has(resolved) && !directories.has(resolved.replace(/\/$/, ''))) {
          findings.push({ at, problem: `links to ${target}, which does not exist` });
          continue;
        }
        if (shipped(file.path) && !shipped(resolved)) {
          findings.push({ at, problem: `links to ${target}, which the package does not ship beside this page; name it in code instead` });
          continue;
        }
        if (anchor !== undefined && !(pages.get(resolved)?.slugs.has(anchor) ?? false)) {
          findings.push({ at, problem: `links to ${target}, whose page has no heading #${anchor}` });
        }
      }
    });
  }
  return findings;
}
