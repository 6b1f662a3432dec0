"""`engram mcp`: the read path as Model Context Protocol tools and resources.

Only `server` imports the MCP SDK (the `mcp` extra); the other modules are plain engram and
serve the server, the benchmark and the tests alike.
"""
