#include "bddf/descriptor_schema.h"

namespace logscope::bddf {

const WireSchemaField* WireSchema::find(int number) const {
  for (int i = 0; i < field_count; ++i)
    if (fields[i].number == number) return &fields[i];
  return nullptr;
}

namespace {

#define SCHEMA(var, name, ...)                              \
  const WireSchemaField var##_fields[] = {__VA_ARGS__};     \
  const WireSchema var = {name, var##_fields, static_cast<int>(sizeof(var##_fields) / sizeof(var##_fields[0]))}

SCHEMA(kTimestamp, "Timestamp", {1, "seconds", nullptr}, {2, "nanos", nullptr});
SCHEMA(kStringMapEntry, "entry", {1, "key", nullptr}, {2, "value", nullptr});
SCHEMA(kFileFormatVersion, "FileFormatVersion", {1, "major_version", nullptr}, {2, "minor_version", nullptr},
       {3, "patch_level", nullptr});
SCHEMA(kFileFormatDescriptor, "FileFormatDescriptor", {1, "version", &kFileFormatVersion},
       {2, "annotations", &kStringMapEntry}, {3, "checksum_type", nullptr}, {4, "checksum_num_bytes", nullptr});
SCHEMA(kSeriesIdentifier, "SeriesIdentifier", {1, "series_type", nullptr}, {2, "spec", &kStringMapEntry});
SCHEMA(kMessageTypeDescriptor, "MessageTypeDescriptor", {1, "content_type", nullptr}, {2, "type_name", nullptr},
       {3, "is_metadata", nullptr});
SCHEMA(kPodTypeDescriptor, "PodTypeDescriptor", {1, "pod_type", nullptr}, {2, "dimension", nullptr});
SCHEMA(kStructTypeDescriptor, "StructTypeDescriptor", {1, "key_to_series_identifier_hash", &kStringMapEntry});
SCHEMA(kSeriesDescriptor, "SeriesDescriptor", {1, "series_index", nullptr}, {2, "series_identifier", &kSeriesIdentifier},
       {3, "identifier_hash", nullptr}, {4, "message_type", &kMessageTypeDescriptor}, {5, "pod_type", &kPodTypeDescriptor},
       {6, "struct_type", &kStructTypeDescriptor}, {7, "annotations", &kStringMapEntry},
       {8, "additional_index_names", nullptr}, {9, "description", nullptr});
SCHEMA(kBlockEntry, "BlockEntry", {1, "timestamp", &kTimestamp}, {2, "file_offset", nullptr},
       {3, "additional_indexes", nullptr});
SCHEMA(kSeriesBlockIndex, "SeriesBlockIndex", {1, "series_index", nullptr}, {2, "descriptor_file_offset", nullptr},
       {3, "block_entries", &kBlockEntry}, {4, "total_bytes", nullptr});
SCHEMA(kFileIndex, "FileIndex", {1, "series_identifiers", &kSeriesIdentifier}, {2, "series_block_index_offsets", nullptr},
       {3, "series_identifier_hashes", nullptr});

#undef SCHEMA

const WireSchemaField kDescriptorBlockFields[] = {{1, "file_descriptor", &kFileFormatDescriptor},
                                                  {2, "series_descriptor", &kSeriesDescriptor},
                                                  {3, "series_block_index", &kSeriesBlockIndex},
                                                  {4, "file_index", &kFileIndex}};
const WireSchemaField kDataDescriptorFields[] = {
    {1, "series_index", nullptr}, {2, "timestamp", &kTimestamp}, {3, "additional_indexes", nullptr}};

}  // namespace

const WireSchema kDescriptorBlockSchema = {"DescriptorBlock", kDescriptorBlockFields, 4};
const WireSchema kDataDescriptorSchema = {"DataDescriptor", kDataDescriptorFields, 3};

}  // namespace logscope::bddf
