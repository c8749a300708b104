/**
 * `token`: prints a signed development token (HS256 with APP_AUTH__SECRET; docs/behaviour.md §5).
 */
import type { Command } from 'commander';
import { config } from './common.js';

/** Adds `token --sub --org --role [--expires]` to `program`. */
export function addTokenCommand(program: Command): void {
  program
    .command('token')
    .description('print a signed development token (HS256 with APP_AUTH__SECRET)')
    .requiredOption('--sub <uuid>', 'user id')
    .requiredOption('--org <uuid>', 'org id')
    .requiredOption('--role <role>', "the role claim, as the application's abilities read it")
    .option('--expires <span>', 'lifetime, for example 12h or 30m', '12h')
    .action(async (options: { sub: string; org: string; role: string; expires: string }) => {
      const { mintToken } = await import('../../runtime/auth/authentication.js');
      process.stdout.write(
        `${await mintToken(config().auth.secret, { sub: options.sub, org_id: options.org, role: options.role }, options.expires)}\n`,
      );
    });
}
