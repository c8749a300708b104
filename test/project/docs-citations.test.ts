/**
 * Every citation resolves and none leaves the repository (docs/README.md "Citations"): the checker
 * of test/support/citations.ts over every tracked text file, and over planted faults so that it is
 * known to catch them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCitations, slugOf, type TextFile } from '../support/citations.js';
import { ROOT } from '../support/project.js';

/** Tracked text files; golden output mirrors generated code, and the checker's own tests plant faults on purpose. */
const TRACKED = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '');
/** What the package ships of the documentation (package.json `files`, and the README npm always adds). */
const SHIPPED = (file: string): boolean => file === 'README.md' || file.startsWith('docs/');
const SKIPPED = /\.(svg|png|jpg|ico|db)$|package-lock\.json$|^test\/docs-citations\.test\.ts$|^test\/support\/citations\.ts$/;

function trackedText(): TextFile[] {
  return TRACKED.filter((file) => !SKIPPED.test(file))
    .map((file) => ({ path: file, text: readFileSync(path.join(ROOT, file), 'utf8') }))
    .filter((file) => !file.text.includes('\0'));
}

const PAGE: TextFile = {
  path: 'docs/page.md',
  text: ['# Page', '', '## 1. First', '', '### 1.2 Second', '', '1. one', '2. two', '', '## Plain heading', ''].join('\n'),
};

describe('citations', () => {
  it('resolve in every tracked file, and none points outside the repository', () => {
    const files = trackedText();
    expect(files.length).toBeGreaterThan(500);
    expect(
      checkCitations(
        files,
        TRACKED.filter((file) => SKIPPED.test(file)),
        SHIPPED,
      ),
    ).toEqual([]);
  });

  it('accept sections, list items, quoted headings, links and anchors that exist', () => {
    const good: TextFile = {
      path: 'runtime/a.ts',
      text: ['/** See docs/page.md §1, §1.2 and §1.2.2; page.md §"Plain heading". */', 'const issues = 1;'].join('\n'),
    };
    const links: TextFile = {
      path: 'README.md',
      text: '[a](docs/page.md) [b](docs/page.md#12-second) [c](#top) [d](https://example.com/x)\n\n# Top\n',
    };
    expect(checkCitations([PAGE, good, links])).toEqual([]);
  });

  it('refuses a planted section, list item, heading, link, anchor and outside pointer that do not resolve', () => {
    const bad: TextFile = {
      path: 'runtime/b.ts',
      text: [
        '/** docs/page.md §3 */',
        '// docs/page.md §1.2.3',
        '// docs/page.md §"No such heading"',
        '// docs/missing.md §1',
        '/** as issue 17 asked */',
        '// (issue: workers)',
        '// the spec says so',
        '// see ../shared/spec/x.md',
        "const ok = 'issue 12 in a string is code, not a comment';",
        '// PRODUCT.md decides it',
        '/** as docs/page.md',
        ' * §7 says, across a line break */',
      ].join('\n'),
    };
    const links: TextFile = { path: 'docs/other.md', text: '[a](missing.md) [b](page.md#nowhere) [c](../../outside.md)\n' };
    expect(checkCitations([PAGE, bad, links]).map((finding) => finding.at)).toEqual([
      'runtime/b.ts:1',
      'runtime/b.ts:2',
      'runtime/b.ts:3',
      'runtime/b.ts:4',
      'runtime/b.ts:5',
      'runtime/b.ts:6',
      'runtime/b.ts:7',
      'runtime/b.ts:8',
      'runtime/b.ts:8',
      'runtime/b.ts:10',
      'runtime/b.ts:12',
      'docs/other.md:1',
      'docs/other.md:1',
      'docs/other.md:1',
    ]);
  });

  it("refuses a link from a shipped page to one the package does not ship, and a page's own section that does not exist", () => {
    const shipped: TextFile = { path: 'docs/shipped.md', text: '# Shipped\n\n## 1. One\n\nSee [the record](../RECORD.md), §1 and §2.\n' };
    const record: TextFile = { path: 'RECORD.md', text: '# Record\n' };
    expect(checkCitations([shipped, record], [], (file) => file.startsWith('docs/'))).toEqual([
      { at: 'docs/shipped.md:5', problem: 'cites docs/shipped.md §2, which is no section there' },
      {
        at: 'docs/shipped.md:5',
        problem: 'links to ../RECORD.md, which the package does not ship beside this page; name it in code instead',
      },
    ]);
  });

  it('makes anchors as GitHub does', () => {
    expect(slugOf('1.2 Second')).toBe('12-second');
    expect(slugOf('GraphQL: guards, subscriptions, playground, SDL')).toBe('graphql-guards-subscriptions-playground-sdl');
    expect(slugOf('`dev` and `serve`')).toBe('dev-and-serve');
  });
});
