import type { ContainerLabels } from './containerBackends.js';
import type { EngineState } from './containerEngine.js';
import { findCompose, type ContainerSupport } from './containerSupport.js';

/**
 * What the container tests of this run can use: the engine (already probed), which of the images
 * exist there, and docker-compose. Image names come from PUBSTREAM_IMAGE, REDIS_IMAGE and
 * KAFKA_IMAGE (`images`), by default the ones infra/images/build.sh tags.
 */
export const containerSupport = async (engine: EngineState, images: ContainerSupport['images'], labels: ContainerLabels): Promise<ContainerSupport> => {
  if (!engine.available) return { unavailable: engine.reason, images, missingImages: [], compose: null, labels };
  const { ImageName } = await import('testcontainers');
  const names = [...new Set(Object.values(images))];
  const present = await Promise.all(names.map((name) => engine.client.image.exists(ImageName.fromString(name)).catch(() => false)));
  return {
    unavailable: null,
    images,
    missingImages: names.filter((_, i) => !present[i]),
    compose: findCompose(),
    labels,
  };
};

/** One log line: the engine, each image (present or not) and docker-compose. */
export const describeContainerSupport = (support: ContainerSupport, engine: EngineState): string => {
  if (support.unavailable || !engine.available) return `[containers] none: ${support.unavailable}`;
  const images = Object.values(support.images)
    .map((image) => `${image}${support.missingImages.includes(image) ? ' (missing: infra/images/build.sh)' : ''}`)
    .join(', ');
  return `[containers] ${engine.description}; images ${images}; docker-compose ${support.compose ?? 'missing'}`;
};
