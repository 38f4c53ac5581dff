export * from './errors.js';
export * from './names.js';
export * from './detect.js';
export * from './images.js';
export * from './notices.js';
export * from './store.js';
