#!/usr/bin/env python3
"""A small Conquian bot speaking the conquian bot protocol (docs/protocol.md).

It uses only the Python standard library and does not import conquian: copy it and
change ``choose`` to write your own bot, in Python or as a model for any language.

Try it:  conquian arena "cmd:python examples/my_bot.py" greedy --deals 10

The protocol in one paragraph: the engine writes one JSON object per line on our
stdin; we answer ``hello`` and ``act`` with one JSON object per line on stdout (and
flush); everything else needs no answer.  Anything we want to log goes to stderr,
never stdout.
"""

import json
import sys

NAME = "my_bot (example)"


def choose(legal_actions, observation):
    """Pick one of the legal action texts.

    The strategy is the simplest sensible one:
    - take the card whenever we can (the engine lists every legal way to meld it;
      we pick the one that lays the most cards on our table),
    - force the opponent whenever we may,
    - otherwise refuse the card ("decline" an offered card, "pass" a turned one),
    - when we must discard, throw the first card offered (lowest suit and rank).
    """
    takes = [a for a in legal_actions if a.startswith("take ")]
    if takes:
        # "take 5c6c7c/JhJdJc": the text after "take" is our whole new table.
        return max(takes, key=lambda a: len(a.split(None, 1)[1].replace("/", "")))
    for word in ("force", "decline", "pass", "noforce"):
        if word in legal_actions:
            return word
    discards = [a for a in legal_actions if a.startswith("discard ")]
    if discards:
        return discards[0]
    return legal_actions[0]  # e.g. a lay-and-pass variant: anything legal will do


def send(message):
    """Write one message as one line and flush, or the engine never sees it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:  # one message per line, until "quit" or end of input
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            # Answer with the protocol version we speak, our name and our options.
            send({"type": "hello", "protocol": 1, "name": NAME, "options": {}})
        elif kind == "new_deal":
            # A new deal: message["player"] is our seat (0 or 1), message["rules"] the
            # rules.  A bot with memory would reset it here.  No answer is expected.
            pass
        elif kind == "act":
            # Our turn: answer with one of the legal actions, within time_limit_ms.
            action = choose(message["legal_actions"], message["observation"])
            send({"type": "action", "action": action})
        elif kind == "result":
            # The deal is over: message["result"] is "win", "loss" or "draw".
            print(f"{NAME}: {message['result']}", file=sys.stderr)
        elif kind == "quit":
            break
        # Any other message type is ignored, as the protocol asks.


if __name__ == "__main__":
    main()
