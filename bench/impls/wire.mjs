// A message link that costs what a real wire costs: JSON text across an asynchronous hop.
export function overTheWire(message) {
  return JSON.parse(JSON.stringify(message));
}

/** Wraps an SDK-style transport ({ send, onmessage }) so what it sends crosses as JSON text. */
export function serializing(transport) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(overTheWire(message), options);
  return transport;
}
