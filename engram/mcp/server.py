"""The stdio MCP server: the SDK's low-level server around `tools.Service`.

Every handler runs on the event loop's one thread (SQLite connections stay on the thread that
opened them), one request at a time; each is a few milliseconds once the indexes are warm.
A failing request becomes an error result or an MCP error and the server carries on; the SDK
points file descriptor 1 at stderr while it serves, so nothing but protocol reaches stdout.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from engram import __version__
from engram.errors import EngramError
from engram.mcp.tools import TOOLS, Service

# MCP's code for a resource that does not exist (the specification's -32002).
RESOURCE_NOT_FOUND = -32002
INSTRUCTIONS = (
    "engram holds this project's memory: the team's rules, skills and knowledge. Call load with "
    "the task before starting work on it and whenever the task changes; fetch returns the text "
    "of ids a pack lists as cards. search finds ids, explain shows why a memory did or did not "
    "load.")


def _failure(exc: BaseException) -> str:
    if isinstance(exc, EngramError):
        return "\n".join(exc.lines())
    return f"engram: internal error: {type(exc).__name__}: {exc}"


def build(service: Service) -> Server[Any]:
    """The server object, its handlers bound to `service`."""

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None
                         ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=t.name, title=t.title, description=t.description,
                       input_schema=dict(t.input_schema),
                       annotations=types.ToolAnnotations(read_only_hint=True,
                                                         open_world_hint=False))
            for t in TOOLS])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            answer = service.call(params.name, params.arguments)
        except Exception as exc:  # noqa: BLE001 - a bad request must never stop the server
            print(_failure(exc), file=sys.stderr)
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=_failure(exc))], is_error=True)
        content: list[types.ContentBlock] = [types.TextContent(type="text", text=answer.text)]
        if answer.notes:
            content.append(types.TextContent(type="text", text="\n".join(answer.notes) + "\n"))
        return types.CallToolResult(content=content)

    async def list_resources(ctx: Any, params: types.PaginatedRequestParams | None
                             ) -> types.ListResourcesResult:
        try:
            page, cursor = service.resources(params.cursor if params else None)
        except Exception as exc:  # noqa: BLE001
            raise MCPError(types.INVALID_PARAMS, _failure(exc)) from None
        return types.ListResourcesResult(resources=[
            types.Resource(uri=r.uri, name=r.name, description=r.description,
                           mime_type="text/markdown") for r in page], next_cursor=cursor)

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams
                            ) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            text = service.read(uri)
        except Exception as exc:  # noqa: BLE001
            raise MCPError(RESOURCE_NOT_FOUND, _failure(exc), {"uri": uri}) from None
        return types.ReadResourceResult(contents=[
            types.TextResourceContents(uri=uri, mime_type="text/markdown", text=text)])

    return Server("engram", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool,
                  on_list_resources=list_resources, on_read_resource=read_resource)


async def _serve(service: Service) -> None:
    server = build(service)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def run() -> int:
    """Serve on stdin/stdout until the client closes the connection."""
    service = Service()
    try:
        asyncio.run(_serve(service))
    finally:
        service.close()
    return 0
