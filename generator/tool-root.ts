/**
 * The checkout the generator runs from — the folder holding `generator/`, `runtime/`,
 * `templates/` and `node_modules/` — for everything the generator finds beside its own code.
 * Run from its sources, the folder above this file's; run compiled (generator/launch.mjs), the
 * compiled copy replaces this module with one naming the checkout it was compiled from.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the checkout (module docstring). */
export const TOOL_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
