import { libraryBuild } from '../../tsup.base';

// The shims give the CommonJS build an import.meta.url, by which sql.js's wasm file is found.
// `installer` is the plugins' install mechanics, `commands` the bin's actions and options as data.
// `command-line` is the `skillopt-sleep` bin's code. `harvest-only` is the `./harvest` subpath: the harvest without the checkpoint store's
// dependencies; the code both entries share is one chunk in either format. `session-end` is the `./session-end` subpath, what an
// agent plugin's session-end hook imports: zod and a few small modules of its own, none of the harvest's sources, core or sql.js.
// `mcp` is the `./mcp` subpath: the MCP server a plugin's MCP bin runs (the one entry that imports @modelcontextprotocol/sdk).
// `testing` is the `./testing` subpath: what a plugin package's tests install it into a temporary home with.
export default libraryBuild(
  ['src/index.ts', 'src/harvest-only.ts', 'src/command-line.ts', 'src/installer.ts', 'src/commands.ts', 'src/session-end.ts', 'src/mcp.ts', 'src/testing.ts'],
  {
    shims: true,
    splitting: true,
  },
);
