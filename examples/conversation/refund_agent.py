"""A refund agent that converses, in Python with the standard library only.

It asks for the order, looks it up, asks the user to confirm, and only then refunds. It speaks
both of calltape's conversation protocols (docs/reference/conversation-protocol.md):

    python3 examples/conversation/refund_agent.py                 JSON lines on stdin/stdout
    python3 examples/conversation/refund_agent.py --serve 8787    HTTP: POST http://127.0.0.1:8787/turn

Its model requests go to the base URL calltape names (OPENAI_BASE_URL, or base_urls.openai over
HTTP), so they land in the case's session.
"""

import json
import os
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SYSTEM = (
    "You handle refunds. Ask for the order number if you do not have it, look the order up with "
    "get_order, tell the user what you found and ask them to confirm. Call issue_refund only after "
    "the user has confirmed."
)


def tool(name, description, properties, required):
    parameters = {"type": "object", "properties": properties, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


TOOLS = [
    tool("get_order", "Look an order up by its number", {"order_id": {"type": "string"}}, ["order_id"]),
    tool(
        "issue_refund",
        "Refund an order in full",
        {"order_id": {"type": "string"}, "reason": {"type": "string"}},
        ["order_id"],
    ),
]


def run_tool(name, args):
    """The real tools (canned here). Under calltape the suite's mocks answer them inside the proxy."""
    if name == "get_order":
        return {"order_id": args.get("order_id"), "item": "kettle", "total": 42}
    if name == "issue_refund":
        return {"refund_id": "R-1", "order_id": args.get("order_id")}
    return {"error": "no tool " + name}


def complete(base_url, messages):
    body = {"model": os.environ.get("CALLTAPE_MODEL", "gpt-4o-mini"), "messages": messages, "tools": TOOLS}
    request = urllib.request.Request(
        base_url.rstrip("/") + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)["choices"][0]["message"]


def answer(base_url, history, text):
    """One user turn: the model (and the tools it calls) until it answers with text."""
    history.append({"role": "user", "content": text})
    for _ in range(8):
        message = complete(base_url, history)
        history.append(message)
        calls = message.get("tool_calls") or []
        if not calls:
            return message.get("content")
        for call in calls:
            result = run_tool(call["function"]["name"], json.loads(call["function"]["arguments"] or "{}"))
            history.append({"role": "tool", "tool_call_id": call["id"], "content": json.dumps(result)})
    return None


def converse_on_stdio():
    """The process protocol: a start line, then one reply line per user line; exit when stdin ends."""
    history = [{"role": "system", "content": SYSTEM}]
    base_url = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1")
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start" and message.get("protocol") != 1:
            print(json.dumps({"type": "end", "reason": "unsupported protocol"}), flush=True)
            return
        if message["type"] == "user":
            text = answer(base_url, history, message["text"])
            print(json.dumps({"type": "reply", "turn": message["turn"], "text": text}), flush=True)


class TurnHandler(BaseHTTPRequestHandler):
    """The HTTP protocol: POST /turn with {session, turn, text, base_urls}; turn 1 starts a new history."""

    conversations = {}

    def do_POST(self):
        turn = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        if turn["turn"] == 1 or turn["session"] not in self.conversations:
            self.conversations[turn["session"]] = [{"role": "system", "content": SYSTEM}]
        try:
            text = answer(turn["base_urls"]["openai"], self.conversations[turn["session"]], turn["text"])
            status, body = 200, json.dumps({"text": text})
        except Exception as error:  # the turn fails with the reason; the server stays up
            status, body = 500, str(error)
        self.send_response(status)
        self.send_header("content-type", "application/json" if status == 200 else "text/plain")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, format, *args):
        pass


if __name__ == "__main__":
    if "--serve" in sys.argv:
        port = int(sys.argv[sys.argv.index("--serve") + 1])
        server = ThreadingHTTPServer(("127.0.0.1", port), TurnHandler)
        print("listening on http://127.0.0.1:%d/turn" % server.server_address[1], flush=True)
        server.serve_forever()
    else:
        converse_on_stdio()
