export * from './run-event-input.js';
export * from './event-bus.js';
export * from './events-file.js';
