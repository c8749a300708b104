/**
 * Route path invalid (docs/behaviour.md §4.2)
 *
 * Every path a controller, a route or a resource writes is one the server mounts as the generator
 * read it: path-to-regexp 8 — Express 5's parser, and the runtime router's — accepts it
 * (`/posts/:id?`, `:id(\\d+)`, a bare `*` throw when the server starts), and it is text and `:name`
 * parameters only, the form every reader of it shares: the router, the OpenAPI path templates, the
 * typed clients and the method's parameters. So a wildcard (`*rest`, an array of segments), an
 * optional group (`{/:id}`), a parameter named outside letters, digits and `_`, a backslash escape,
 * a parameter named twice, and a parameter in a resource's path are refused too, each naming the
 * construct and the fix. What path-to-regexp read is decided in generator/resolve/route-paths.ts;
 * this rule only says it.
 */
import type { RoutePathProblem, WrittenPathModel } from '../../model/model.js';
import type { SourceSpan } from '../../model/types.js';
import type { Rule } from '../rule.js';

/** Where a path is written, for the fix: a route (its decorator, `Get`), a controller, or a resource. */
type PathSite = { readonly kind: 'route'; readonly decorator: string } | { readonly kind: 'controller' | 'resource' };

/** How to write `path` in its decorator (`` `@Get(':id')` ``, `` `@Get()` ``), quoted as code, for a fix. */
function written(site: PathSite, path: string): string {
  if (site.kind === 'resource') return `\`@Resource({ path: '${path}' })\``;
  const name = site.kind === 'route' ? site.decorator : 'Controller';
  return path === '' ? `\`@${name}()\`` : `\`@${name}('${path}')\``;
}

/** `text` without the character at `index` and the segment it ends (`posts/:id?` → `posts`). */
function withoutSegment(text: string, index: number): string {
  const start = text.lastIndexOf('/', index - 1);
  return `${text.slice(0, Math.max(0, start))}${text.slice(index + 1)}`;
}

/** `text` as literal segments: its reserved characters and parameters left out (`orgs/:orgId/notes` → `orgs/notes`). */
function literalSegments(text: string): string {
  return text
    .replace(/[:*]("[^"]*"|[$\w]+)?/g, '')
    .replace(/[\\{}()[\]+?!]/g, '')
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+|\/+$/g, '');
}

/** A parameter name of letters, digits and `_` close to `name` (`note-id` → `noteId`). */
function identifierLike(name: string): string {
  const camel = name
    .replace(/[^A-Za-z0-9_]+(.)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase())
    .replace(/^[0-9]+/, '');
  return camel === '' ? 'id' : camel.charAt(0).toLowerCase() + camel.slice(1);
}

/** What a reserved character path-to-regexp 8 refuses (`Unexpected ? at index 8`) is, or was in Express 4. */
const RESERVED: Readonly<Record<string, string>> = {
  '?': 'is not optional syntax in Express 5 (path-to-regexp 8 refuses it when the server starts)',
  '+': 'is not repetition syntax in Express 5 (path-to-regexp 8 refuses it when the server starts)',
  '(': 'opens a regular expression, which Express 5 (path-to-regexp 8) refuses in a path when the server starts',
  ')': 'closes a regular expression, which Express 5 (path-to-regexp 8) refuses in a path when the server starts',
  '}': 'closes no group, which path-to-regexp 8 refuses when the server starts',
};

/** The construct and the fix of a path path-to-regexp refused, from its reason, the text and where it is written. */
function syntaxMessage(text: string, reason: string, index: number | undefined, site: PathSite): string {
  const unexpected = /^Unexpected (.) at index \d+$/.exec(reason)?.[1];
  if (unexpected !== undefined && index !== undefined) {
    const what = `\`${unexpected}\` ${RESERVED[unexpected] ?? 'is reserved in Express 5 paths (path-to-regexp 8 refuses it when the server starts)'}`;
    if (site.kind === 'resource')
      return `${what}; write the collection's path as literal segments (${written(site, literalSegments(text))})`;
    if (unexpected === '?' && site.kind === 'route')
      return `${what}; declare the route twice, without the segment and with it (${written(site, withoutSegment(text, index))} and ${written(site, `${text.slice(0, index)}${text.slice(index + 1)}`)})`;
    if (unexpected === '(' || unexpected === ')')
      return `${what}; match the segment with a \`:name\` parameter and check its value with a pipe on the method's parameter`;
    return `${what}; leave it out of the path`;
  }
  if (reason.startsWith('Missing parameter name')) {
    const sigil = index === undefined ? undefined : text[index];
    return sigil === '*'
      ? '`*` without a name is refused by Express 5 (path-to-regexp 8) when the server starts, and a named wildcard (`*rest`) binds an array of segments, which the generated routes do not take; name each segment (`:folder/:file`)'
      : '`:` starts no parameter name, which path-to-regexp 8 refuses when the server starts; write `:name` with a letter after the colon, or leave the colon out';
  }
  if (reason.startsWith('Unexpected end at index') && reason.endsWith('expected }'))
    return '`{` opens an optional group that is never closed, which path-to-regexp 8 refuses when the server starts (and an optional group is not taken either); declare the route without the segment and with it';
  if (reason.startsWith('Unterminated quote'))
    return 'a quoted parameter name is never closed, which path-to-regexp 8 refuses when the server starts; name the parameter with letters, digits and `_` (`:postId`)';
  if (reason.startsWith('Unexpected end after \\'))
    return 'a path cannot end with `\\` (path-to-regexp 8 refuses it when the server starts); remove it';
  const together = /^Missing text before "(.*)" (?:param|wildcard)$/.exec(reason)?.[1];
  if (together !== undefined) {
    const apart = index === undefined ? `:a/:${together}` : `${text.slice(0, index)}/${text.slice(index)}`;
    return `\`:${together}\` follows another parameter with no text between them, which path-to-regexp 8 refuses when the server starts; give each its own segment (${written(site, apart)})`;
  }
  return `path-to-regexp 8 refuses it when the server starts (${reason}); write text and \`:name\` parameters only`;
}

/** The construct a problem names and the fix, as a message after `<where> path '<text>':`. */
function problemMessage(text: string, problem: RoutePathProblem, site: PathSite): string {
  switch (problem.kind) {
    case 'syntax':
      return syntaxMessage(text, problem.reason, problem.index, site);
    case 'wildcard':
      return `\`*${problem.name}\` is a wildcard, which Express 5 binds to an array of segments that no OpenAPI path template or typed client can express; name each segment (\`:${problem.name}\`), or take the rest as a query parameter`;
    case 'group': {
      const closes = text.indexOf('}', problem.index);
      const inner = closes < 0 ? '' : text.slice(problem.index + 1, closes);
      const fix =
        site.kind === 'route' && closes >= 0
          ? ` (${written(site, `${text.slice(0, problem.index)}${text.slice(closes + 1)}`)} and ${written(site, `${text.slice(0, problem.index)}${inner}${text.slice(closes + 1)}`)})`
          : '';
      return `\`{…}\` is an optional group, and an OpenAPI path cannot leave a segment out; declare the route twice, without the segment and with it${fix}`;
    }
    case 'parameterName':
      return `parameter \`${problem.name}\` is not named with letters, digits and \`_\`, as the method's parameter and the OpenAPI template \`{name}\` take it; rename it (\`:${identifierLike(problem.name)}\`)`;
    case 'duplicateParameter':
      return `\`:${problem.name}\` is named twice on the route's full path, and the router would keep one value of the two; rename one of them`;
    case 'resourceParameter':
      return `\`:${problem.name}\` is a parameter, and a resource's generated operations read \`:id\` alone; write the collection's path as literal segments (${written(site, literalSegments(text))})`;
    case 'escape':
      return 'a backslash escape makes the next character literal for the router, but the OpenAPI documents and typed clients would not read it so; leave the reserved characters (`: * ? + ! ( ) [ ] { }`) out of the path';
  }
}

/** The span of the character at `index` of a path written at `span`, when the literal is written plainly; else the literal's. */
function spanAt(text: string, span: SourceSpan, index: number | undefined): SourceSpan {
  // A literal as long as its text plus its quotes has no escape sequence: its characters sit one column apart.
  if (index === undefined || span.length !== text.length + 2) return span;
  return { ...span, column: span.column + 1 + index, length: 1 };
}

/** `GET` → `Get`: the route decorator of an HTTP method. */
const decoratorOf = (method: string): string => method.charAt(0) + method.slice(1).toLowerCase();

export const routePathInvalid: Rule = (app, report) => {
  const check = (path: WrittenPathModel, where: string, site: PathSite, fallback: SourceSpan): void => {
    for (const problem of path.problems) {
      report({
        message: `${where} path '${path.text}': ${problemMessage(path.text, problem, site)}`,
        span: path.span ? spanAt(path.text, path.span, problem.index) : fallback,
      });
    }
  };
  for (const controller of app.controllers) {
    check(controller.writtenPath, `${controller.name}'s`, { kind: 'controller' }, controller.span);
    for (const route of controller.routes)
      check(route.writtenPath, `${route.owner}.${route.methodName}'s`, { kind: 'route', decorator: decoratorOf(route.method) }, route.span);
  }
  for (const resource of app.resources)
    check(resource.controller.writtenPath, `${resource.name}'s @Resource`, { kind: 'resource' }, resource.span);
};
