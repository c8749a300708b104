/**
 * API text empty
 *
 * What `@ApiTags` and `@ApiOperation` declare is read by the API's callers, so it says something:
 * a tag has a name (an empty one would be a nameless group in the documents), and an
 * `@ApiOperation` declares a non-empty `summary` or `description` (an empty one would silently
 * replace the docstring's text with nothing).
 */
import type { DeclaredValue } from '../../model/declarations.js';
import type { Rule } from '../rule.js';

const isBlank = (value: DeclaredValue): boolean => value.kind === 'string' && value.value.trim().length === 0;

export const apiTextEmpty: Rule = (app, report) => {
  for (const use of app.decorators) {
    const { decorator } = use;
    if (decorator.name === 'ApiTags') {
      for (const argument of decorator.arguments) {
        if (isBlank(argument))
          report({
            message: `@ApiTags on ${use.declaration} names an empty tag; name the group callers see, for example 'Posts', or drop @ApiTags to use the controller's path`,
            span: argument.span,
          });
      }
    }
    if (decorator.name === 'ApiOperation') {
      const options = decorator.arguments[0];
      if (options?.kind !== 'object') continue;
      for (const property of options.properties) {
        if ((property.key === 'summary' || property.key === 'description') && isBlank(property.value)) {
          report({
            message: `@ApiOperation on ${use.declaration} declares an empty ${property.key}; write one for callers, or drop it to use the method's docstring`,
            span: property.value.span,
          });
        }
      }
      if (!options.properties.some((property) => property.key === 'summary' || property.key === 'description')) {
        report({
          message: `@ApiOperation on ${use.declaration} declares neither summary nor description; declare one, or drop @ApiOperation to use the method's docstring`,
          span: decorator.span,
        });
      }
    }
  }
};
