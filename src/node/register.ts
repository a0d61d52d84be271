/**
 * Imported first by an entry point (a worker script, the CLI, the extension): registers the Node file system and
 * the Node platform (paths, hashing, gunzip, workers) before any core module runs its top level, so
 * `import './register'` placed above the core's imports is enough.
 */
import { useNodeFileSystem } from './nodeFileSystem';
import { useNodePlatform } from './nodePlatform';

useNodeFileSystem();
useNodePlatform();
