#!/bin/sh
# Deploys one service.
set -eu
echo "deploying $2 to $4"
