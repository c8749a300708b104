/**
 * Class not exported
 *
 * A decorated class is named and exported: generated code imports it by name.
 */
import type { Rule } from '../rule.js';

export const classNotExported: Rule = (app, report) => {
  for (const cls of app.classes) {
    if (cls.name === undefined)
      report({ message: 'a decorated class must be named and exported, so generated code can import it', span: cls.span });
    else if (!cls.exported)
      report({ message: `${cls.name} is decorated but not exported; export it so generated code can import it`, span: cls.span });
  }
};
