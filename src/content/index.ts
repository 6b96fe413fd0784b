/**
 * The content script: for now only the engine, reached by message (page translation comes later).
 *
 * The engine is put on the global object of the content script's isolated world. Page scripts run
 * in another world and never see it, nor can other extensions; so it adds no attack surface, while
 * later content-script modules and the e2e tests (through the DevTools protocol, which can evaluate
 * in an isolated world) reach it without any listener a page could talk to.
 */
import { callApi, translateStream } from '../shared/api';

export interface ContentEngine {
  callApi: typeof callApi;
  translateStream: typeof translateStream;
}

declare global {
  var polyglot: ContentEngine | undefined;
}

globalThis.polyglot = Object.freeze({ callApi, translateStream });
