/**
 * The image PubstreamContainer starts when none is given: PUBSTREAM_IMAGE, else `pubstream:local`
 * (what infra/images/build.sh tags; `docker build -f infra/Dockerfile -t pubstream:local .` too).
 * A test helper reads its image from the environment the way testcontainers reads DOCKER_HOST, so
 * CI can pin an image without touching the tests.
 */
export const defaultPubstreamImage = (): string => process.env.PUBSTREAM_IMAGE || 'pubstream:local';
