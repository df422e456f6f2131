// Relay compiler configuration. relay-compiler loads it with require(); this
// package is ESM, so the object is also exported under the 'module.exports'
// name, which Node's require(esm) returns as the module's value.
const config = {
  src: './web/src',
  schema: './schema.graphql',
  language: 'typescript',
  artifactDirectory: './web/src/__generated__',
  eagerEsModules: true,
  excludes: ['**/node_modules/**', '**/__generated__/**'],
  customScalarTypes: { DateTime: 'string', BigInt: 'string' },
  persistConfig: { file: './web/persisted-queries.json', algorithm: 'SHA256' },
};
export { config as 'module.exports' };
export default config;
