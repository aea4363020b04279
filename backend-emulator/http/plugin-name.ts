/**
 * A fastify plugin with its name given, as fastify-plugin gives one (without its other effect:
 * the plugin keeps its own encapsulated context). Without a name, fastify looks for a module that
 * exports the function by walking `require.cache`, twice per `register()`, and avvio falls back to
 * the function's source text. The emulator's plugins are inline functions that no module exports,
 * so the walk always fails, and it costs: under jest, `require.cache` is a proxy over the hundreds
 * of modules a test file has loaded, walked on every app build. The name also reads better in
 * fastify's plugin tree and boot errors than a function's first line.
 */
import type { FastifyPluginAsync } from 'fastify';

export function namedPlugin(name: string, plugin: FastifyPluginAsync): FastifyPluginAsync {
  const named = plugin as unknown as Record<symbol, unknown>;
  named[Symbol.for('fastify.display-name')] = name; // fastify's name (plugin-utils.js)
  named[Symbol.for('plugin-meta')] = { name }; // avvio's, in the plugin tree
  return plugin;
}
