// The folders of ../shared/samples that hold formats logscope reads (detection's families).
// ../shared/samples also holds formats it does not read yet (mcap/, rosbag2/): tests that walk
// every sample family walk these only. A format logscope learns to read adds its folder here.
export const SAMPLE_FAMILIES = ['bddf', 'carla', 'rosbag'];
