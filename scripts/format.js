#!/usr/bin/env node
// `npm run format` rewrites every file Prettier owns; `npm run format -- --check` only checks them
// (Prettier's own `--write --check` would write and pass).
const { spawnSync } = require('child_process');

const check = process.argv.includes('--check');
const prettier = require.resolve('prettier/bin/prettier.cjs');
const result = spawnSync(process.execPath, [prettier, check ? '--check' : '--write', '--log-level', check ? 'warn' : 'log', '.'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
