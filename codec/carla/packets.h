// Every family of the packet table, for code that names entries (packets::Position) to decode or
// write them.
#pragma once

#include "carla/packets_animation.h"
#include "carla/packets_events.h"
#include "carla/packets_frame.h"
#include "carla/packets_physics.h"
#include "carla/packets_world.h"
