export * from './allInOne.js';
export { DEMO_COLLECTION, type DemoSeed } from './seedDemo.js';
