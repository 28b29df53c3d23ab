/**
 * Flags every local Chromium gets, whichever driver launches it. Without the first ones Chromium in
 * a container hangs (sandbox, GPU) or talks to Google on its own (sync, component updates, background
 * networking); the WebRTC policy keeps page scripts from sending STUN/TURN over UDP, which no HTTP
 * proxy — so not the filtering proxy either — would see.
 */
export const CHROMIUM_BASE_FLAGS: readonly string[] = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
]);
