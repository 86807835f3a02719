// What every processor's stand-in shares (each stand-in lives in its processor's folder, dev/<id>.stand-in.ts):
// the loopback HTTP server with delays and outages, the issuer's challenge page, multipart bodies taken apart.
export * from './psp-stand-in-server';
export * from './issuer-challenge-page';
export * from './multipart-form';
