#!/usr/bin/env node
/**
 * The `google-native-local` command: `validate` and `templates` run the import engine locally;
 * `import` uploads local files into an import job of an emulator or of Google; `report` makes a
 * report of a project's assets there and prints its summary; `serve` starts the emulator (the same
 * as `npm start`).
 */
import { importCommand, IMPORT_HELP } from './import';
import { reportCommand, REPORT_HELP } from './report';
import { templatesCommand, TEMPLATES_HELP } from './templates';
import { validateCommand, VALIDATE_HELP } from './validate';
import { UsageError } from './local-files';
import { reexecWithFewerArenas } from '../malloc-arenas';
import { unsupportedNode } from '../node-version';

const HELP = `Usage: google-native-local COMMAND [OPTIONS]

Commands:
  serve [FLAGS]                         start the emulator (flags: serve --help)
  validate PATH... --format FORMAT      check import files locally, no server
  templates FORMAT DIR                  write the empty templates of an import format
  import --job NAME FILE...             upload files into an import job (an emulator or Google),
                                        validate it, print the report, run it
  report --project P --location L       create a report of a project's assets (an emulator or
                                        Google) and print its summary
  help [COMMAND]                        this text, or a command's

Run \`google-native-local COMMAND --help\` for a command's options.
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'validate':
        return await validateCommand(rest);
      case 'templates':
        return await templatesCommand(rest);
      case 'import':
        return await importCommand(rest);
      case 'report':
        return await reportCommand(rest);
      case 'serve': {
        // The emulator's own entry point sets the exit code and keeps the process alive.
        await (await import('../cli')).main(rest);
        return -1;
      }
      case undefined:
        // No command is a usage error (a script that forgot its command must not pass).
        process.stderr.write(HELP);
        return 2;
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(
          ({ validate: VALIDATE_HELP, templates: TEMPLATES_HELP, import: IMPORT_HELP, report: REPORT_HELP } as Record<string, string>)[rest[0]] ?? HELP,
        );
        return 0;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (!usage) throw err;
    process.stderr.write(`google-native-local: ${(err as Error).message}\n(run google-native-local --help)\n`);
    return 2;
  }
}

if (require.main === module) {
  const refused = unsupportedNode();
  if (refused) {
    process.stderr.write(`google-native-local: ${refused}\n`);
    process.exitCode = 1;
  } else {
    // The emulator gets its malloc settings (two arenas, fixed thresholds): this process starts again once with them (malloc-arenas.ts).
    if (process.argv[2] === 'serve') reexecWithFewerArenas();
    main(process.argv.slice(2)).then(
      (code) => {
        if (code >= 0) process.exitCode = code;
      },
      (err) => {
        process.stderr.write(`google-native-local: ${(err as Error).stack ?? String(err)}\n`);
        process.exitCode = 1;
      },
    );
  }
}
