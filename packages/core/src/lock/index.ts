// Locking a directory for one process at a time: run directories, Sleep's state.
export * from './directory-lock.js';
