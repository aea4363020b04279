/**
 * Jest's transformer for the TypeScript sources: ts-jest, loaded only when a file must really be
 * compiled. Jest asks a transformer for a file's cache key first and compiles only on a miss; ts-jest
 * answers that key itself, so each jest worker required ts-jest and TypeScript (about 0.3 CPU-s, and
 * 15 MB of heap that every full collection of the worker then marks again) even when every file
 * came from jest's cache. The key here is made of what ts-jest's is (its version, TypeScript's, the
 * options, the tsconfig files, the file's text and path) without loading either.
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

/** The text of a tsconfig file and of those it extends (relative paths only, as ours are). */
function tsconfigChain(file, seen = new Set()) {
  if (seen.has(file)) return '';
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  const extended = /"extends"\s*:\s*"(\.[^"]+)"/.exec(text);
  return extended ? text + tsconfigChain(path.resolve(path.dirname(file), extended[1]), seen) : text;
}

function createTransformer(options = {}) {
  let tsJest;
  const compiler = () => (tsJest ??= require('ts-jest').default.createTransformer(options));
  let configKey;
  /** What every file's key shares: computed once per transformer, from files only. */
  const sharedKey = (rootDir) =>
    (configKey ??= [
      fs.readFileSync(path.join(__dirname, 'jest-transform.js'), 'utf8'),
      require('ts-jest/package.json').version,
      require('typescript/package.json').version,
      JSON.stringify(options),
      tsconfigChain(path.resolve(rootDir, (options.tsconfig ?? '<rootDir>/tsconfig.json').replace('<rootDir>', rootDir))),
    ].join('\0'));
  return {
    getCacheKey(source, filePath, transformOptions) {
      const { config, configString, instrument = false, supportsStaticESM = false } = transformOptions;
      return crypto
        .createHash('sha1')
        .update(sharedKey(config.rootDir))
        .update(`\0${configString}\0instrument:${instrument}\0esm:${supportsStaticESM}\0${filePath}\0`)
        .update(source)
        .digest('hex');
    },
    process: (source, filePath, transformOptions) => compiler().process(source, filePath, transformOptions),
    processAsync: (source, filePath, transformOptions) => compiler().processAsync(source, filePath, transformOptions),
  };
}

module.exports = { createTransformer };
